import { describe, expect, it } from '@jest/globals';
import { setTimeout as sleep } from 'node:timers/promises';
import { UnauthenticatedError } from './errors/unauthenticated-error.js';
import { watchStreamAuthorization } from './stream-authorization.js';

describe('watchStreamAuthorization', () => {
  it('ends the stream once the token is refused, and only once', async () => {
    let valid = true;
    const refused: Error[] = [];
    watchStreamAuthorization({
      check: async () => {
        if (!valid) throw new UnauthenticatedError('The token has expired.');
      },
      everyMs: 10,
      onRefused: (error) => refused.push(error),
    });
    await sleep(40);
    expect(refused).toEqual([]);
    valid = false;
    await sleep(60);
    expect(refused).toHaveLength(1);
    expect(refused[0]).toMatchObject({ code: 'UNAUTHENTICATED' });
    expect(refused[0]!.message).toMatch(/^The token has expired\./);
  });

  it('keeps the stream when a check fails for another reason', async () => {
    const refused: Error[] = [];
    const stop = watchStreamAuthorization({
      check: () => Promise.reject(new Error('connection refused')),
      everyMs: 10,
      onRefused: (error) => refused.push(error),
    });
    await sleep(50);
    stop();
    expect(refused).toEqual([]);
  });

  it('checks nothing after stop', async () => {
    let checks = 0;
    const stop = watchStreamAuthorization({
      check: async () => void checks++,
      everyMs: 10,
      onRefused: () => undefined,
    });
    await sleep(35);
    stop();
    const seen = checks;
    expect(seen).toBeGreaterThan(0);
    await sleep(40);
    expect(checks).toBe(seen);
  });
});
