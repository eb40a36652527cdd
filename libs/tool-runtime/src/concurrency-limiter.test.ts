import { describe, expect, it } from '@jest/globals';
import { setTimeout as sleep } from 'node:timers/promises';
import { CallAbort } from './call-abort.js';
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

  it('drops a waiter whose call is aborted, and frees its place for the next', async () => {
    const limiter = new ConcurrencyLimiter(1);
    let release!: () => void;
    const first = limiter.run(() => new Promise<void>((resolve) => (release = resolve)));
    const abort = new CallAbort();
    const abandoned = limiter.run(async () => 'ran', { abort });
    const third = limiter.run(async () => 'third');
    expect(limiter.queued).toBe(2);
    abort.abort(new Error('cancelled'));
    await expect(abandoned).rejects.toThrow('cancelled');
    expect(limiter.queued).toBe(1);
    release();
    await first;
    await expect(third).resolves.toBe('third');
    // Aborted before it asks: it never waits.
    await expect(limiter.run(async () => 'ran', { abort })).rejects.toThrow('cancelled');
  });

  it('drops a waiter whose deadline passes with the error it names, and starts one that got a slot in time', async () => {
    const limiter = new ConcurrencyLimiter(1);
    let release!: () => void;
    const first = limiter.run(() => new Promise<void>((resolve) => (release = resolve)));
    const late = limiter.run(async () => 'ran', {
      timeoutMs: 20,
      timeoutError: () => new Error('no slot in time'),
    });
    const abort = new CallAbort();
    const patient = limiter.run(async () => 'patient', { timeoutMs: 5_000, abort });
    await expect(late).rejects.toThrow('no slot in time');
    release();
    await first;
    await expect(patient).resolves.toBe('patient');
    // Its timer and its abort listener are gone: aborting now changes nothing.
    abort.abort(new Error('too late'));
    expect(limiter.running).toBe(0);
    expect(limiter.queued).toBe(0);
  });

  it('rejects a bad limit', () => {
    expect(() => new ConcurrencyLimiter(0)).toThrow(RangeError);
  });
});
