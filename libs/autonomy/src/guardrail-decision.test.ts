import { describe, expect, it } from '@jest/globals';
import { afterJobOutcome, decideFire } from './guardrail-decision.js';

const now = new Date('2027-01-01T00:00:10Z');

describe('decideFire', () => {
  it('skips past max concurrent (default 1), inside the cooldown and inside the dedup window', () => {
    expect(decideFire({}, { now, unfinishedJobs: 0 })).toEqual({ fire: true });
    expect(decideFire({}, { now, unfinishedJobs: 1 })).toMatchObject({ fire: false, rule: 'max_concurrent' });
    expect(decideFire({ maxConcurrent: 3 }, { now, unfinishedJobs: 2 })).toEqual({ fire: true });
    const lastFireAt = new Date(now.getTime() - 4000);
    expect(decideFire({ cooldownMs: 5000 }, { now, unfinishedJobs: 0, lastFireAt })).toMatchObject({
      fire: false,
      rule: 'cooldown',
    });
    expect(decideFire({ cooldownMs: 3000 }, { now, unfinishedJobs: 0, lastFireAt })).toEqual({ fire: true });
    expect(
      decideFire({ dedupWindowMs: 60_000 }, { now, unfinishedJobs: 0, lastDuplicateAt: lastFireAt }),
    ).toMatchObject({ fire: false, rule: 'dedup' });
  });
});

describe('afterJobOutcome', () => {
  it('disables after the fifth consecutive failure by default and resets on success', () => {
    let failures = 0;
    for (let i = 1; i <= 4; i++) {
      const next = afterJobOutcome({}, failures, false, 'TOOL_FAILED');
      expect(next.disabledReason).toBeUndefined();
      failures = next.consecutiveFailures;
    }
    const fifth = afterJobOutcome({}, failures, false, 'TOOL_FAILED: boom');
    expect(fifth.disabledReason).toMatch(/disabled after 5 consecutive failed jobs.*TOOL_FAILED: boom/);
    expect(afterJobOutcome({}, 4, true)).toEqual({ consecutiveFailures: 0 });
    expect(afterJobOutcome({ maxConsecutiveFailures: 2 }, 1, false).disabledReason).toBeDefined();
  });
});
