import { describe, expect, it } from '@jest/globals';
import { afterLostLease, canTransition, isFinalJobState } from './job-state-machine.js';

describe('job state machine', () => {
  it('allows the documented moves only', () => {
    expect(canTransition('pending', 'running')).toBe(true);
    expect(canTransition('running', 'waiting_approval')).toBe(true);
    expect(canTransition('waiting_approval', 'running')).toBe(true);
    expect(canTransition('running', 'stuck')).toBe(true);
    expect(canTransition('stuck', 'cancelled')).toBe(true);
    expect(canTransition('completed', 'running')).toBe(false);
    expect(canTransition('pending', 'completed')).toBe(false);
    expect(isFinalJobState('failed')).toBe(true);
    expect(isFinalJobState('stuck')).toBe(false);
  });

  it('retries a lost lease while attempts remain', () => {
    expect(afterLostLease(1, 1)).toBe('fail');
    expect(afterLostLease(1, 2)).toBe('retry');
  });
});
