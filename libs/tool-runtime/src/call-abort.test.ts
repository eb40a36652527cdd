import { describe, expect, it } from '@jest/globals';
import { setTimeout as sleep } from 'node:timers/promises';
import { ERROR_CODES } from '@talon/contracts';
import { TalonError } from '@talon/errors';
import { CallAbort } from './call-abort.js';
import { ToolTimeoutError } from './errors/tool-timeout-error.js';
import { runWithTimeout } from './run-with-timeout.js';

describe('CallAbort', () => {
  it('tells its listeners once, in order, and a listener removed before the abort is not told', () => {
    const abort = new CallAbort();
    const heard: string[] = [];
    abort.onAbort((reason) => heard.push(`first ${String(reason)}`));
    const remove = abort.onAbort(() => heard.push('removed'));
    abort.onAbort((reason) => heard.push(`last ${String(reason)}`));
    remove();
    abort.abort('gone');
    abort.abort('again');
    expect(heard).toEqual(['first gone', 'last gone']);
    expect(abort.aborted).toBe(true);
    expect(abort.reason).toBe('gone');
  });

  it('runs a listener added after the abort at once', () => {
    const abort = new CallAbort();
    abort.abort('early');
    let heard: unknown;
    abort.onAbort((reason) => (heard = reason));
    expect(heard).toBe('early');
  });

  it('makes a signal that follows the abort, whether it is asked for before or after it', () => {
    const before = new CallAbort();
    const signal = before.signal;
    expect(signal.aborted).toBe(false);
    before.abort('stop');
    expect(signal.aborted).toBe(true);
    expect(signal.reason).toBe('stop');
    const after = new CallAbort();
    after.abort('late');
    expect(after.signal.aborted).toBe(true);
    expect(after.signal.reason).toBe('late');
    expect(after.signal).toBe(after.signal);
  });
});

describe('runWithTimeout', () => {
  it('resolves with the work and makes no signal nobody asked for', async () => {
    const abort = new CallAbort();
    await expect(runWithTimeout('echo', 1000, undefined, async () => 'done', abort)).resolves.toBe('done');
    expect(abort.aborted).toBe(false);
    expect((abort as unknown as { controller?: AbortController }).controller).toBeUndefined();
  });

  it('times out with TIMEOUT, aborts the work and drops its late result', async () => {
    let signal: AbortSignal | undefined;
    const running = runWithTimeout('slow', 20, undefined, async (abort) => {
      signal = abort.signal;
      await sleep(200);
      return 'late';
    });
    await expect(running).rejects.toMatchObject({ code: 'TIMEOUT', details: { reason: 'timeout' } });
    expect(signal?.aborted).toBe(true);
    expect(signal?.reason).toBeInstanceOf(ToolTimeoutError);
  });

  it("stops at once when the caller's own abort fires, with its TalonError", async () => {
    const abort = new CallAbort();
    const cancelled = new TalonError(ERROR_CODES.TIMEOUT, 'cancelled by the caller');
    const running = runWithTimeout(
      'slow',
      10_000,
      undefined,
      () => new Promise<never>(() => undefined),
      abort,
    );
    abort.abort(cancelled);
    await expect(running).rejects.toBe(cancelled);
  });

  it('follows a parent signal, also one aborted before the start', async () => {
    const parent = new AbortController();
    const running = runWithTimeout('slow', 10_000, parent.signal, () => new Promise<never>(() => undefined));
    parent.abort(new Error('turn ended'));
    await expect(running).rejects.toMatchObject({ code: 'TIMEOUT', details: { reason: 'cancelled' } });
    let started = false;
    await expect(
      runWithTimeout('any', 1000, parent.signal, async () => {
        started = true;
      }),
    ).rejects.toMatchObject({ details: { reason: 'cancelled' } });
    expect(started).toBe(false);
  });

  it('passes the work’s own error through', async () => {
    const failure = new Error('broken');
    await expect(
      runWithTimeout('fails', 1000, undefined, async () => {
        throw failure;
      }),
    ).rejects.toBe(failure);
  });
});
