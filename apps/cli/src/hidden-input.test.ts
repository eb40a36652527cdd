import { describe, expect, it } from '@jest/globals';
import { PassThrough } from 'node:stream';
import { HiddenInputCancelled, readHiddenLine } from './hidden-input.js';

function terminal() {
  const input = Object.assign(new PassThrough(), {
    isTTY: true,
    modes: [] as boolean[],
    setRawMode(mode: boolean) {
      this.modes.push(mode);
    },
  });
  const output = new PassThrough();
  let shown = '';
  output.on('data', (chunk: Buffer) => (shown += chunk.toString()));
  return { input, output, shown: () => shown };
}

describe('readHiddenLine', () => {
  it('reads up to Enter without echoing a character, with Backspace, and restores the mode', async () => {
    const { input, output, shown } = terminal();
    const value = readHiddenLine('value: ', input, output);
    input.write('ghp_sec');
    input.write('x\x7fret\rignored');
    expect(await value).toBe('ghp_secret');
    expect(shown()).toBe('value: \n');
    expect(input.modes).toEqual([true, false]);
  });

  it('rejects on Ctrl-C and ends on Ctrl-D', async () => {
    const cancelled = terminal();
    const value = readHiddenLine('value: ', cancelled.input, cancelled.output);
    cancelled.input.write('abc\x03');
    await expect(value).rejects.toBeInstanceOf(HiddenInputCancelled);
    expect(cancelled.input.modes).toEqual([true, false]);
    const ended = terminal();
    const empty = readHiddenLine('value: ', ended.input, ended.output);
    ended.input.write('\x04');
    expect(await empty).toBe('');
  });
});
