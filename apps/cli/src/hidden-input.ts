/** A terminal's input as {@link readHiddenLine} needs it (a `tty.ReadStream` fits). */
export interface HiddenInputStream extends NodeJS.ReadableStream {
  isTTY?: boolean;
  setRawMode?(mode: boolean): unknown;
}

/** Thrown when the person presses Ctrl-C at a hidden prompt. */
export class HiddenInputCancelled extends Error {
  readonly code = 'CANCELLED';
  constructor() {
    super('cancelled (Ctrl-C): nothing was stored');
  }
}

/**
 * Reads one line from a terminal without echoing it: raw mode, so the characters never reach the
 * screen; Backspace edits, Enter ends, Ctrl-D ends (an empty line when nothing was typed), Ctrl-C
 * rejects with {@link HiddenInputCancelled}. The terminal's mode is restored in every case.
 */
export function readHiddenLine(
  prompt: string,
  input: HiddenInputStream,
  output: NodeJS.WritableStream,
): Promise<string> {
  output.write(prompt);
  input.setRawMode?.(true);
  input.resume();
  let value = '';
  return new Promise((resolve, reject) => {
    const finish = (error?: Error): void => {
      input.removeListener('data', onData);
      input.removeListener('end', onEnd);
      input.setRawMode?.(false);
      input.pause();
      output.write('\n');
      if (error) reject(error);
      else resolve(value);
    };
    const onEnd = (): void => finish();
    const onData = (chunk: Buffer | string): void => {
      for (const char of chunk.toString()) {
        if (char === '\r' || char === '\n' || char === '\x04') return finish();
        if (char === '\x03') return finish(new HiddenInputCancelled());
        if (char === '\x7f' || char === '\b') value = [...value].slice(0, -1).join('');
        else if (char >= ' ') value += char;
      }
    };
    input.on('data', onData);
    input.once('end', onEnd);
  });
}
