import { describe, expect, it } from '@jest/globals';
import { setTimeout as sleep } from 'node:timers/promises';
import { ConcurrencyLimiter } from './concurrency-limiter.js';

describe('ConcurrencyLimiter', () => {
  it('never runs more than the limit at once and runs every task', async () => {
    const limiter = new ConcurrencyLimiter(3);
    let running = 0;
    let peak = 0;
    const results = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        limiter.run(async () => {
          running++;
          peak = Math.max(peak, running);
          await sleep(2);
          running--;
          return i;
        }),
      ),
    );
    expect(peak).toBe(3);
    expect(results).toEqual(Array.from({ length: 20 }, (_, i) => i));
    expect(limiter.running).toBe(0);
  });

  it('drops a waiter whose signal aborts, and frees its slot for the next', async () => {
    const limiter = new ConcurrencyLimiter(1);
    let release!: () => void;
    const first = limiter.run(() => new Promise<void>((resolve) => (release = resolve)));
    const controller = new AbortController();
    const abandoned = limiter.run(async () => 'ran', controller.signal);
    const third = limiter.run(async () => 'third');
    controller.abort(new Error('deadline passed'));
    await expect(abandoned).rejects.toThrow('deadline passed');
    release();
    await first;
    await expect(third).resolves.toBe('third');
  });

  it('rejects a bad limit', () => {
    expect(() => new ConcurrencyLimiter(0)).toThrow(RangeError);
  });
});
