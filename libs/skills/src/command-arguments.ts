import { SkillParameterError } from './skill-parameter-error.js';

/** A `/command key=value …` message taken apart. */
export interface CommandArguments {
  /** The command without its slash, lowercased (`standup`). */
  command: string;
  /** `key=value` pairs, values as typed (strings; quotes removed). Typed later against the skill's parameters. */
  values: Record<string, string>;
  /** What is left of the message once the pairs are taken out (free text for the model). */
  text: string;
}

const COMMAND = /^\s*\/([a-z0-9][a-z0-9_-]{0,63})(?=\s|$)/i;
const KEY = /^[A-Za-z_][A-Za-z0-9_]{0,63}$/;
/** Most pairs one message may carry. */
export const MAX_COMMAND_ARGUMENTS = 32;

/**
 * Parses `/standup squad=payments days=3 "free text"`. A pair is `key=value` with `value` bare (up to the
 * next space), double- or single-quoted (`title="two words"`, `\"` escapes inside) or a JSON array/object
 * (`areas=["a","b"]`). Words that are not pairs stay in `text`, in order. Returns `undefined` when the
 * message is not a command. Throws {@link SkillParameterError} for an unterminated quote, a key given twice
 * or too many pairs.
 */
export function parseCommandArguments(message: string): CommandArguments | undefined {
  const head = COMMAND.exec(message);
  if (head === null) return undefined;
  const command = head[1]!.toLowerCase();
  const rest = message.slice(head[0].length);
  const values: Record<string, string> = Object.create(null) as Record<string, string>;
  const words: string[] = [];
  let index = 0;
  const fail = (problem: string): never => {
    throw new SkillParameterError(command, '(command)', problem);
  };
  while (index < rest.length) {
    while (index < rest.length && /\s/.test(rest[index]!)) index++;
    if (index >= rest.length) break;
    const start = index;
    while (index < rest.length && !/[\s=]/.test(rest[index]!)) index++;
    const key = rest.slice(start, index);
    if (rest[index] !== '=' || !KEY.test(key)) {
      while (index < rest.length && !/\s/.test(rest[index]!)) index++;
      words.push(rest.slice(start, index));
      continue;
    }
    index++; // '='
    let value: string;
    const first = rest[index];
    if (first === '"' || first === "'") {
      let text = '';
      index++;
      for (;;) {
        if (index >= rest.length) fail(`the value of ${key} opens a ${first} quote that is never closed`);
        const char = rest[index]!;
        if (char === '\\' && index + 1 < rest.length) {
          text += rest[index + 1];
          index += 2;
          continue;
        }
        index++;
        if (char === first) break;
        text += char;
      }
      value = text;
    } else if (first === '[' || first === '{') {
      const end = closingBracket(rest, index);
      value = rest.slice(index, end);
      index = end;
    } else {
      const begin = index;
      while (index < rest.length && !/\s/.test(rest[index]!)) index++;
      value = rest.slice(begin, index);
    }
    if (Object.prototype.hasOwnProperty.call(values, key)) fail(`${key} is given twice`);
    if (Object.keys(values).length >= MAX_COMMAND_ARGUMENTS)
      fail(`more than ${MAX_COMMAND_ARGUMENTS} key=value pairs`);
    values[key] = value;
  }
  return { command, values: { ...values }, text: words.join(' ') };
}

/** The index just after the bracket that closes the one at `start` (quotes respected), or the end of a word. */
function closingBracket(text: string, start: number): number {
  let depth = 0;
  let quote: string | undefined;
  for (let index = start; index < text.length; index++) {
    const char = text[index]!;
    if (quote !== undefined) {
      if (char === '\\') index++;
      else if (char === quote) quote = undefined;
    } else if (char === '"') quote = char;
    else if (char === '[' || char === '{') depth++;
    else if (char === ']' || char === '}') {
      depth--;
      if (depth === 0) return index + 1;
    } else if (depth === 0 && /\s/.test(char)) return index;
  }
  return text.length;
}
