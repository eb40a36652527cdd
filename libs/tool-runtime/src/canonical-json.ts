/** One array or object being written: its members in order, and the text of those already written. */
interface Frame {
  readonly container: object;
  /** Sorted member names of an object; `null` for an array. */
  readonly keys: readonly string[] | null;
  readonly items: readonly unknown[];
  index: number;
  readonly parts: string[];
}

/** Nesting up to which {@link canonicalJson} recurses; a deeper value is written with an explicit stack. */
const RECURSION_LIMIT = 32;

/**
 * JSON text with object keys sorted at every level, so equal values always give equal text
 * (used for schema cache keys and audit hashes). `undefined` members are dropped as JSON.stringify does.
 * Ordinary values are written recursively, with one string per level (it runs for every tool call's
 * params). A value nested deeper than {@link RECURSION_LIMIT} is written again iteratively: ten thousand
 * levels cost memory, not the call stack, and a cycle (which nests without end) is refused with a TypeError
 * instead of looping.
 */
export function canonicalJson(value: unknown): string {
  return recursiveCanonicalJson(value, 0) ?? stackedCanonicalJson(value);
}

/** The text of `input`, or `undefined` when it nests deeper than {@link RECURSION_LIMIT}. */
function recursiveCanonicalJson(input: unknown, depth: number): string | undefined {
  const value = plainValue(input);
  if (value === null || typeof value !== 'object') return JSON.stringify(value) ?? 'null';
  if (depth === RECURSION_LIMIT) return undefined;
  if (Array.isArray(value)) {
    let text = '[';
    for (let index = 0; index < value.length; index++) {
      const item: unknown = value[index];
      const part =
        item === undefined || typeof item === 'function' ? 'null' : recursiveCanonicalJson(item, depth + 1);
      if (part === undefined) return undefined;
      text += index === 0 ? part : `,${part}`;
    }
    return `${text}]`;
  }
  const record = value as Record<string, unknown>;
  let text = '{';
  for (const key of Object.keys(record).sort()) {
    const member = record[key];
    if (member === undefined || typeof member === 'function' || typeof member === 'symbol') continue;
    const part = recursiveCanonicalJson(member, depth + 1);
    if (part === undefined) return undefined;
    text += `${text === '{' ? '' : ','}${JSON.stringify(key)}:${part}`;
  }
  return `${text}}`;
}

/** `input` after its `toJSON`, as JSON.stringify takes it. */
function plainValue(input: unknown): unknown {
  let current = input;
  while (
    current !== null &&
    typeof current === 'object' &&
    typeof (current as { toJSON?: unknown }).toJSON === 'function'
  ) {
    current = (current as { toJSON: () => unknown }).toJSON();
  }
  return current;
}

/** The same text as {@link recursiveCanonicalJson}, for values of any depth, written with an explicit stack. */
function stackedCanonicalJson(value: unknown): string {
  const stack: Frame[] = [];
  const open = new Set<object>();
  /** The text of a leaf, or `undefined` after pushing the frame of an array or object. */
  const enter = (input: unknown): string | undefined => {
    const current = plainValue(input);
    if (current === null || typeof current !== 'object') return JSON.stringify(current) ?? 'null';
    if (open.has(current)) throw new TypeError('canonicalJson: the value contains a cycle');
    open.add(current);
    if (Array.isArray(current)) {
      stack.push({ container: current, keys: null, items: current, index: 0, parts: [] });
    } else {
      const record = current as Record<string, unknown>;
      const keys = Object.keys(record)
        .sort()
        .filter((key) => {
          const member = record[key];
          return member !== undefined && typeof member !== 'function' && typeof member !== 'symbol';
        });
      stack.push({ container: current, keys, items: keys.map((key) => record[key]), index: 0, parts: [] });
    }
    return undefined;
  };
  const add = (frame: Frame, text: string): void => {
    frame.parts.push(frame.keys === null ? text : `${JSON.stringify(frame.keys[frame.index - 1])}:${text}`);
  };
  const top = enter(value);
  if (top !== undefined) return top;
  for (;;) {
    const frame = stack[stack.length - 1]!;
    if (frame.index < frame.items.length) {
      const item = frame.items[frame.index++];
      const text =
        frame.keys === null && (item === undefined || typeof item === 'function') ? 'null' : enter(item);
      if (text !== undefined) add(frame, text);
      continue;
    }
    stack.pop();
    open.delete(frame.container);
    const text = frame.keys === null ? `[${frame.parts.join(',')}]` : `{${frame.parts.join(',')}}`;
    if (stack.length === 0) return text;
    add(stack[stack.length - 1]!, text);
  }
}
