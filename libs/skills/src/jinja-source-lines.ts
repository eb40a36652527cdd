import { parse, tokenize } from '@huggingface/jinja';

/**
 * Line numbers for a lexer without positions: the template's tags are scanned here, a comment token carrying
 * the line is put before each tag's token, and errors are mapped back to the nearest marker.
 */

/** Prefix of the comment tokens that carry a line number. */
export const LINE_MARK = '\u0000line:';

type Token = { type: string; value: string };

/** The tokens with a line marker before every `{{` / `{%` (the k-th tag's line before the k-th opener). */
export function markLines(tokens: readonly Token[], tags: readonly SourceTag[]): Token[] {
  const marked: Token[] = [];
  let tag = 0;
  for (const token of tokens) {
    if ((token.type === 'OpenStatement' || token.type === 'OpenExpression') && tag < tags.length)
      marked.push({ type: 'Comment', value: `${LINE_MARK}${tags[tag++]!.line}` });
    marked.push(token);
  }
  return marked;
}

/** The line a marker comment carries, or undefined for any other comment. */
export function markedLine(comment: string): number | undefined {
  return comment.startsWith(LINE_MARK) ? Number(comment.slice(LINE_MARK.length)) : undefined;
}

/** One `{{ … }}` or `{% … %}` tag of the source, with the line it starts on. */
export interface SourceTag {
  line: number;
  text: string;
}

/** The tags of a template in order (comments skipped, quoted strings inside tags respected). */
export function scanTags(source: string): SourceTag[] {
  const tags: SourceTag[] = [];
  let line = 1;
  let position = 0;
  const advanceTo = (index: number) => {
    for (let i = position; i < index; i++) if (source.charCodeAt(i) === 10) line++;
    position = index;
  };
  for (;;) {
    const open = source.indexOf('{', position);
    if (open < 0 || open + 1 >= source.length) break;
    const kind = source[open + 1];
    if (kind !== '{' && kind !== '%' && kind !== '#') {
      advanceTo(open + 1);
      continue;
    }
    advanceTo(open);
    if (kind === '#') {
      const close = source.indexOf('#}', open + 2);
      advanceTo(close < 0 ? source.length : close + 2);
      continue;
    }
    const closer = kind === '{' ? '}}' : '%}';
    let index = open + 2;
    let quote: string | undefined;
    let depth = 0;
    while (index < source.length) {
      const char = source[index]!;
      if (quote !== undefined) {
        if (char === '\\') index++;
        else if (char === quote) quote = undefined;
      } else if (char === '"' || char === "'") quote = char;
      else if (depth === 0 && source.startsWith(closer, index)) break;
      else if (char === '{') depth++;
      else if (char === '}') depth--;
      index++;
    }
    const end = Math.min(source.length, index + 2);
    tags.push({ line, text: source.slice(open, end) });
    advanceTo(end);
  }
  return tags;
}

/** The line of the first tag that does not tokenize on its own. */
export function lexerErrorLine(tags: readonly SourceTag[]): number | undefined {
  for (const tag of tags) {
    try {
      tokenize(tag.text);
    } catch {
      return tag.line;
    }
  }
  return tags.at(-1)?.line;
}

/** The line marker nearest before the furthest token the parser looked at. */
export function parserErrorLine(tokens: readonly Token[]): number | undefined {
  let furthest = 0;
  const watched = new Proxy(tokens as Token[], {
    get(target, key, receiver) {
      if (typeof key === 'string' && /^\d+$/.test(key)) furthest = Math.max(furthest, Number(key));
      return Reflect.get(target, key, receiver) as unknown;
    },
  });
  try {
    parse(watched as never);
  } catch {
    // The same error again; only the position matters here.
  }
  for (let index = Math.min(furthest, tokens.length - 1); index >= 0; index--) {
    const token = tokens[index]!;
    if (token.type === 'Comment' && token.value.startsWith(LINE_MARK))
      return Number(token.value.slice(LINE_MARK.length));
  }
  return undefined;
}
