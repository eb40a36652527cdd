import { describe, expect, it } from '@jest/globals';
import { WorkerLossDetector } from './worker-loss-detector.js';

describe('WorkerLossDetector', () => {
  it('probes only acknowledged calls, grouped by instance', () => {
    const detector = new WorkerLossDetector();
    detector.track('t1', 'c1', 0);
    detector.track('t2', 'c2', 0);
    detector.track('t3', 'c3', 0);
    detector.acknowledged('t1', 'a', 1);
    detector.acknowledged('t2', 'a', 1);
    expect([...detector.probeTargets()]).toEqual([['a', ['c1', 'c2']]]);
  });

  it('declares every call of a gone instance lost at once, and only those', () => {
    const detector = new WorkerLossDetector();
    detector.track('t1', 'c1', 0);
    detector.track('t2', 'c2', 0);
    detector.acknowledged('t1', 'a', 1);
    detector.acknowledged('t2', 'b', 1);
    expect(detector.probeGone('a')).toEqual([{ token: 't1', callId: 'c1', instanceId: 'a', reason: 'gone' }]);
    expect(detector.size).toBe(1);
    expect(detector.probeGone('a')).toEqual([]);
  });

  it('waits out a slow instance before calling it unresponsive', () => {
    const detector = new WorkerLossDetector({ unresponsiveAfterMs: 1000 });
    detector.track('t1', 'c1', 0);
    detector.acknowledged('t1', 'a', 0);
    expect(detector.probeFailed('a', 600)).toEqual([]);
    expect(detector.probeAnswered('a', ['c1'], ['c1'], 700)).toEqual([]);
    expect(detector.probeFailed('a', 1500)).toEqual([]);
    expect(detector.probeFailed('a', 1700)).toEqual([
      { token: 't1', callId: 'c1', instanceId: 'a', reason: 'unresponsive' },
    ]);
  });

  it('catches a call the instance acknowledged and then forgot, but not one acknowledged after the probe', () => {
    const detector = new WorkerLossDetector();
    detector.track('t1', 'c1', 0);
    detector.track('t2', 'c2', 0);
    detector.acknowledged('t1', 'a', 1);
    const asked = detector.probeTargets().get('a')!;
    detector.acknowledged('t2', 'a', 2);
    expect(detector.probeAnswered('a', asked, [], 3)).toEqual([
      { token: 't1', callId: 'c1', instanceId: 'a', reason: 'not_held' },
    ]);
    expect(detector.size).toBe(1);
  });

  it('gives up on a call nobody acknowledged after the ack timeout', () => {
    const detector = new WorkerLossDetector({ ackTimeoutMs: 500 });
    detector.track('t1', 'c1', 0);
    expect(detector.sweep(499)).toEqual([]);
    expect(detector.sweep(500)).toEqual([{ token: 't1', callId: 'c1', reason: 'no_ack' }]);
  });

  it('declares nothing while paused and restarts every clock on resume', () => {
    const detector = new WorkerLossDetector({ ackTimeoutMs: 500, unresponsiveAfterMs: 500 });
    detector.track('t1', 'c1', 0);
    detector.track('t2', 'c2', 0);
    detector.acknowledged('t2', 'a', 0);
    detector.pause();
    expect(detector.sweep(5000)).toEqual([]);
    expect(detector.probeFailed('a', 5000)).toEqual([]);
    expect(detector.probeGone('a')).toEqual([]);
    expect(detector.probeTargets().size).toBe(0);
    detector.resume(5000);
    expect(detector.sweep(5400)).toEqual([]);
    expect(detector.probeFailed('a', 5400)).toEqual([]);
    expect(detector.sweep(5500)).toHaveLength(1);
  });

  it('forgets settled calls and ignores acks for unknown tokens', () => {
    const detector = new WorkerLossDetector();
    detector.acknowledged('nope', 'a', 0);
    detector.track('t1', 'c1', 0);
    detector.settle('t1');
    detector.settle('t1');
    expect(detector.size).toBe(0);
    expect(detector.probeTargets().size).toBe(0);
  });
});
