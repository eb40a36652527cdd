import { SHELL_REFUSAL_REASONS, ShellCommandRefusedError } from './shell-command-refused-error.js';

/**
 * A word after quote removal. `dynamic` when its value is only known at run time (expansion,
 * substitution, brace expansion); `glob` when it holds an unquoted `*`, `?` or `[` that the shell
 * expands to file names.
 */
export interface ShellWord {
  text: string;
  dynamic: boolean;
  glob?: boolean;
}

/** One token of a command line. */
export type ShellToken =
  | { kind: 'word'; word: ShellWord }
  | { kind: 'operator'; operator: string }
  | { kind: 'redirect'; operator: string; fd?: string };

/** A tokenised command line, with the bodies of its command substitutions (parsed separately). */
export interface TokenizedShell {
  tokens: ShellToken[];
  substitutions: string[];
  /** Whether any substitution could not be parsed into programs (arithmetic, inside `${…}`). */
  opaqueSubstitution: boolean;
  hasExpansion: boolean;
}

const OPERATORS = ['&&', '||', ';;', '|&', ';', '|', '&', '(', ')'];
const REDIRECTS = ['&>>', '<<<', '<<-', '>>', '>|', '>&', '<<', '<&', '<>', '&>', '>', '<'];
const ANSI_C_SIMPLE: Record<string, string> = {
  n: '\n',
  r: '\r',
  t: '\t',
  a: '\x07',
  b: '\b',
  e: '\x1b',
  E: '\x1b',
  f: '\f',
  v: '\v',
  '\\': '\\',
  "'": "'",
  '"': '"',
  '?': '?',
};

/**
 * A small POSIX-shell tokenizer written for approval decisions, not for execution. It was written
 * here rather than taken from shell-quote because that package expands `$VAR` away, splits `$(…)`
 * into loose operators instead of returning its body, and does not know `$'…'` quoting, so it
 * cannot tell an approver which programs a substitution runs or whether a line break is hidden.
 */
export class ShellTokenizer {
  private index = 0;
  private readonly tokens: ShellToken[] = [];
  private readonly substitutions: string[] = [];
  private opaqueSubstitution = false;
  private hasExpansion = false;
  private text = '';
  private dynamic = false;
  private glob = false;
  private inWord = false;

  constructor(private readonly source: string) {}

  tokenize(): TokenizedShell {
    const s = this.source;
    while (this.index < s.length) {
      const c = s[this.index]!;
      if (c === ' ' || c === '\t') {
        this.endWord();
        this.index += 1;
      } else if (c === '#' && !this.inWord) {
        break;
      } else if ((c === '<' || c === '>') && s[this.index + 1] === '(') {
        this.processSubstitution();
      } else if (this.tryOperator()) {
        continue;
      } else if (c === "'") {
        this.singleQuoted();
      } else if (c === '"') {
        this.doubleQuoted();
      } else if (c === '\\') {
        this.inWord = true;
        if (this.index + 1 < s.length) this.text += s[this.index + 1];
        this.index += 2;
      } else if (c === '$') {
        this.dollar(false);
      } else if (c === '`') {
        this.backtick();
      } else {
        this.inWord = true;
        if (c === '*' || c === '?' || c === '[') this.glob = true;
        if (c === '{' && /^\{[^}]*(,|\.\.)[^}]*\}/.test(s.slice(this.index))) this.dynamic = true;
        this.text += c;
        this.index += 1;
      }
    }
    this.endWord();
    return {
      tokens: this.tokens,
      substitutions: this.substitutions,
      opaqueSubstitution: this.opaqueSubstitution,
      hasExpansion: this.hasExpansion,
    };
  }

  private endWord(): void {
    if (this.inWord)
      this.tokens.push({
        kind: 'word',
        word: this.glob
          ? { text: this.text, dynamic: this.dynamic, glob: true }
          : { text: this.text, dynamic: this.dynamic },
      });
    this.text = '';
    this.dynamic = false;
    this.glob = false;
    this.inWord = false;
  }

  private tryOperator(): boolean {
    const rest = this.source.slice(this.index);
    const redirect = REDIRECTS.find((op) => rest.startsWith(op));
    if (redirect) {
      // A word made only of digits right before a redirect is its file descriptor (`2>`).
      const fd = this.inWord && !this.dynamic && /^\d+$/.test(this.text) ? this.text : undefined;
      if (fd !== undefined) {
        this.text = '';
        this.inWord = false;
      } else {
        this.endWord();
      }
      this.tokens.push(
        fd === undefined
          ? { kind: 'redirect', operator: redirect }
          : { kind: 'redirect', operator: redirect, fd },
      );
      this.index += redirect.length;
      return true;
    }
    const operator = OPERATORS.find((op) => rest.startsWith(op));
    if (!operator) return false;
    this.endWord();
    this.tokens.push({ kind: 'operator', operator });
    this.index += operator.length;
    return true;
  }

  private singleQuoted(): void {
    const end = this.source.indexOf("'", this.index + 1);
    if (end < 0)
      throw new ShellCommandRefusedError(SHELL_REFUSAL_REASONS.UNTERMINATED, 'a single quote is not closed');
    this.inWord = true;
    this.text += this.source.slice(this.index + 1, end);
    this.index = end + 1;
  }

  private doubleQuoted(): void {
    const s = this.source;
    this.inWord = true;
    this.index += 1;
    while (this.index < s.length && s[this.index] !== '"') {
      const c = s[this.index]!;
      if (c === '\\' && '$`"\\'.includes(s[this.index + 1] ?? '')) {
        this.text += s[this.index + 1];
        this.index += 2;
      } else if (c === '$') {
        this.dollar(true);
      } else if (c === '`') {
        this.backtick();
      } else {
        this.text += c;
        this.index += 1;
      }
    }
    if (s[this.index] !== '"')
      throw new ShellCommandRefusedError(SHELL_REFUSAL_REASONS.UNTERMINATED, 'a double quote is not closed');
    this.index += 1;
  }

  private dollar(quoted: boolean): void {
    const s = this.source;
    const next = s[this.index + 1] ?? '';
    this.inWord = true;
    if (next === "'" && !quoted) {
      this.ansiC();
    } else if (next === '"' && !quoted) {
      this.index += 1; // $"…" (locale translation) reads like "…"
      this.doubleQuoted();
    } else if (next === '(') {
      const end = findClosing(s, this.index + 1, '(', ')');
      const body = s.slice(this.index + 2, end);
      if (body.startsWith('(') && body.endsWith(')'))
        this.opaqueSubstitution = true; // $(( arithmetic ))
      else this.substitutions.push(body);
      this.markDynamic(s.slice(this.index, end + 1));
      this.index = end + 1;
    } else if (next === '{') {
      const end = findClosing(s, this.index + 1, '{', '}');
      const body = s.slice(this.index + 2, end);
      if (body.includes('$(') || body.includes('`')) this.opaqueSubstitution = true;
      this.markDynamic(s.slice(this.index, end + 1));
      this.index = end + 1;
    } else if (/[A-Za-z_]/.test(next)) {
      const name = /^[A-Za-z_][A-Za-z0-9_]*/.exec(s.slice(this.index + 1))![0];
      this.markDynamic(`$${name}`);
      this.index += 1 + name.length;
    } else if (/[0-9@*#?$!-]/.test(next) && next !== '') {
      this.markDynamic(`$${next}`);
      this.index += 2;
    } else {
      this.text += '$';
      this.index += 1;
    }
  }

  private markDynamic(raw: string): void {
    this.text += raw;
    this.dynamic = true;
    this.hasExpansion = true;
  }

  private backtick(): void {
    const s = this.source;
    let body = '';
    let i = this.index + 1;
    while (i < s.length && s[i] !== '`') {
      if (s[i] === '\\' && '`\\$'.includes(s[i + 1] ?? '')) {
        body += s[i + 1];
        i += 2;
      } else {
        body += s[i];
        i += 1;
      }
    }
    if (s[i] !== '`')
      throw new ShellCommandRefusedError(SHELL_REFUSAL_REASONS.UNTERMINATED, 'a backtick is not closed');
    this.substitutions.push(body);
    this.inWord = true;
    this.markDynamic(s.slice(this.index, i + 1));
    this.index = i + 1;
  }

  private processSubstitution(): void {
    const end = findClosing(this.source, this.index + 1, '(', ')');
    this.substitutions.push(this.source.slice(this.index + 2, end));
    this.inWord = true;
    this.markDynamic(this.source.slice(this.index, end + 1));
    this.index = end + 1;
  }

  private ansiC(): void {
    const s = this.source;
    let i = this.index + 2;
    let decoded = '';
    while (i < s.length && s[i] !== "'") {
      if (s[i] !== '\\') {
        decoded += s[i];
        i += 1;
        continue;
      }
      const e = s[i + 1] ?? '';
      let match: RegExpExecArray | null;
      const rest = s.slice(i + 1);
      if (e in ANSI_C_SIMPLE) {
        decoded += ANSI_C_SIMPLE[e];
        i += 2;
      } else if ((match = /^x([0-9a-fA-F]{1,2})/.exec(rest))) {
        decoded += String.fromCharCode(parseInt(match[1]!, 16));
        i += 1 + match[0].length;
      } else if ((match = /^u([0-9a-fA-F]{1,4})/.exec(rest)) || (match = /^U([0-9a-fA-F]{1,8})/.exec(rest))) {
        decoded += String.fromCodePoint(Math.min(parseInt(match[1]!, 16), 0x10ffff));
        i += 1 + match[0].length;
      } else if ((match = /^([0-7]{1,3})/.exec(rest))) {
        decoded += String.fromCharCode(parseInt(match[1]!, 8) & 0xff);
        i += 1 + match[0].length;
      } else if (e === 'c' && i + 2 < s.length) {
        decoded += String.fromCharCode(s.charCodeAt(i + 2) & 0x1f);
        i += 3;
      } else {
        decoded += '\\' + e;
        i += 2;
      }
    }
    if (s[i] !== "'")
      throw new ShellCommandRefusedError(
        SHELL_REFUSAL_REASONS.UNTERMINATED,
        "an ANSI-C $'…' quote is not closed",
      );
    if (LINE_BREAKS.test(decoded)) {
      throw new ShellCommandRefusedError(
        SHELL_REFUSAL_REASONS.ANSI_C_NEWLINE,
        "an ANSI-C $'…' quote encodes a line break",
      );
    }
    this.text += decoded;
    this.index = i + 1;
  }
}

/** Every character a shell or a terminal may treat as a line break. */
export const LINE_BREAKS = /[\n\r\v\f\u0085\u2028\u2029]/;

/** Index of the bracket closing the one at `open`, skipping quoted text; refuses when unbalanced. */
function findClosing(s: string, open: number, opening: string, closing: string): number {
  let depth = 0;
  for (let i = open; i < s.length; i += 1) {
    const c = s[i];
    if (c === '\\') {
      i += 1;
    } else if (c === "'") {
      const end = s.indexOf("'", i + 1);
      if (end < 0) break;
      i = end;
    } else if (c === '"') {
      let end = i + 1;
      while (end < s.length && s[end] !== '"') end += s[end] === '\\' ? 2 : 1;
      if (end >= s.length) break;
      i = end;
    } else if (c === opening) {
      depth += 1;
    } else if (c === closing) {
      depth -= 1;
      if (depth === 0) return i;
    }
  }
  throw new ShellCommandRefusedError(SHELL_REFUSAL_REASONS.UNTERMINATED, `a "${opening}" is not closed`);
}
