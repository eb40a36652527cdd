import { describe, expect, it } from '@jest/globals';
import { createInterface } from 'node:readline';
import { PassThrough } from 'node:stream';
import { LineReader } from './line-reader.js';

function reader() {
  const input = new PassThrough();
  const output = new PassThrough();
  const rl = createInterface({ input, output, terminal: false });
  return { input, output, rl, lines: new LineReader(rl) };
}

describe('LineReader', () => {
  it('keeps lines typed while no prompt was shown, in order', async () => {
    const { input, lines } = reader();
    input.write('first\nsecond\n');
    await new Promise((resolve) => setImmediate(resolve));
    expect(await lines.next('> ')).toBe('first');
    expect(await lines.next('> ')).toBe('second');
  });

  it('waits for the next line and shows the prompt', async () => {
    const { input, output, lines } = reader();
    let shown = '';
    output.on('data', (chunk: Buffer) => (shown += chunk.toString()));
    const next = lines.next('you › ');
    input.write('hello\n');
    expect(await next).toBe('hello');
    expect(shown).toContain('you › ');
  });

  it('answers undefined once input ends, also to a pending wait', async () => {
    const { input, lines } = reader();
    const pending = lines.next('> ');
    input.end();
    expect(await pending).toBeUndefined();
    expect(await lines.next('> ')).toBeUndefined();
  });

  it('gives up a prompt when its signal aborts, and the next line waits for the next call', async () => {
    const { input, lines } = reader();
    const controller = new AbortController();
    const asked = lines.next('? ', controller.signal);
    controller.abort(new Error('left the prompt'));
    await expect(asked).rejects.toThrow('left the prompt');
    input.write('later\n');
    await new Promise((resolve) => setImmediate(resolve));
    expect(await lines.next('> ')).toBe('later');
    await expect(lines.next('> ', controller.signal)).rejects.toThrow('left the prompt');
  });
});
