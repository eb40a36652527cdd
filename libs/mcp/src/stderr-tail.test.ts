import { describe, expect, it } from '@jest/globals';
import { PassThrough } from 'node:stream';
import { restartDelayMs } from './restart-backoff.js';
import { StderrTail } from './stderr-tail.js';

describe('StderrTail', () => {
  it('keeps the last N lines across chunk boundaries, including an unterminated one', async () => {
    const tail = new StderrTail(3);
    const stream = new PassThrough();
    tail.follow(stream);
    stream.write('one\ntw');
    stream.write('o\r\nthree\n\nfour\nfi');
    await new Promise((done) => setImmediate(done));
    expect(tail.snapshot()).toEqual(['two', 'three', 'four', 'fi']);
    stream.end('ve\n');
    await new Promise((done) => setImmediate(done));
    expect(tail.snapshot()).toEqual(['three', 'four', 'five']);
  });

  it('caps very long lines', () => {
    const tail = new StderrTail();
    tail.write(`${'x'.repeat(10_000)}\n`);
    expect(tail.snapshot()[0]?.length).toBe(2000);
  });
});

describe('restartDelayMs', () => {
  it('doubles from the initial delay up to the cap', () => {
    const policy = { initialDelayMs: 100, maxDelayMs: 1000 };
    expect([0, 1, 2, 3, 4, 50].map((failures) => restartDelayMs(policy, failures))).toEqual([
      100, 200, 400, 800, 1000, 1000,
    ]);
  });
});
