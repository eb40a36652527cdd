/**
 * Finds the offset of the first JSON syntax error in `text` (the text is known to be malformed).
 * Used only after JSON.parse failed, because V8 does not always report a position.
 * Returns the text length when the text simply ends too early.
 */
export function locateJsonError(text: string): number {
  let index = 0;
  const fail = (at: number): never => {
    throw new LocatedError(at);
  };
  const skipSpace = (): void => {
    while (index < text.length && ' \t\n\r'.includes(text[index]!)) index += 1;
  };
  const expectLiteral = (literal: string): void => {
    for (const char of literal) {
      if (text[index] !== char) fail(index);
      index += 1;
    }
  };
  const readString = (): void => {
    index += 1; // opening quote
    while (index < text.length) {
      const code = text.charCodeAt(index);
      if (code === 0x22) {
        index += 1;
        return;
      }
      if (code < 0x20) fail(index);
      if (code === 0x5c) {
        const escape = text[index + 1];
        if (escape === 'u') {
          if (!/^[0-9a-fA-F]{4}$/.test(text.slice(index + 2, index + 6))) fail(index);
          index += 6;
          continue;
        }
        if (escape === undefined || !'"\\/bfnrt'.includes(escape)) fail(index);
        index += 2;
        continue;
      }
      index += 1;
    }
    fail(index);
  };
  const readNumber = (): void => {
    const match = /^-?(0|[1-9]\d*)(\.\d+)?([eE][+-]?\d+)?/.exec(text.slice(index, index + 400));
    if (!match) fail(index);
    index += match![0].length;
  };
  const readValue = (): void => {
    skipSpace();
    const char = text[index];
    if (char === '{') {
      index += 1;
      skipSpace();
      if (text[index] === '}') {
        index += 1;
        return;
      }
      for (;;) {
        skipSpace();
        if (text[index] !== '"') fail(index);
        readString();
        skipSpace();
        if (text[index] !== ':') fail(index);
        index += 1;
        readValue();
        skipSpace();
        if (text[index] === ',') index += 1;
        else if (text[index] === '}') return void (index += 1);
        else fail(index);
      }
    } else if (char === '[') {
      index += 1;
      skipSpace();
      if (text[index] === ']') {
        index += 1;
        return;
      }
      for (;;) {
        readValue();
        skipSpace();
        if (text[index] === ',') index += 1;
        else if (text[index] === ']') return void (index += 1);
        else fail(index);
      }
    } else if (char === '"') readString();
    else if (char === 't') expectLiteral('true');
    else if (char === 'f') expectLiteral('false');
    else if (char === 'n') expectLiteral('null');
    else readNumber();
  };
  try {
    readValue();
    skipSpace();
    return index < text.length ? index : text.length;
  } catch (error) {
    if (error instanceof LocatedError) return Math.min(error.offset, text.length);
    return text.length; // e.g. nesting deeper than the stack
  }
}

class LocatedError {
  constructor(readonly offset: number) {}
}
