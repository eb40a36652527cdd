import { describe, expect, it } from '@jest/globals';
import type { GateReading, GateReads } from './gate-reads.js';
import { CachedGateReads } from './cached-gate-reads.js';

/** Inner reads answered by hand, counted. */
function controlledReads() {
  const pending: Array<{
    key: string;
    settle: (reading: GateReading) => void;
    fail: (error: Error) => void;
  }> = [];
  const inner: GateReads = {
    read: (sessionId, callKey) =>
      new Promise((settle, fail) => pending.push({ key: `${sessionId}/${callKey}`, settle, fail })),
  };
  return { inner, pending };
}

const reading = (tool: string): GateReading => ({
  approval: undefined,
  grants: { byEffect: {}, byTool: { [tool]: 'allow' } },
});

describe('CachedGateReads', () => {
  it('shares one read per session and call while the epoch stands still, and reads again once it moves', async () => {
    const { inner, pending } = controlledReads();
    const epoch = { value: 1, current: () => epoch.value };
    const reads = new CachedGateReads(inner, epoch);
    const first = reads.read('s1', 'gate:a');
    const joined = reads.read('s1', 'gate:a');
    const other = reads.read('s1', 'gate:b');
    expect(pending.map((read) => read.key)).toEqual(['s1/gate:a', 's1/gate:b']);
    pending[0]!.settle(reading('one'));
    pending[1]!.settle(reading('other'));
    expect(await first).toEqual(reading('one'));
    expect(await joined).toBe(await first);
    expect(await other).toEqual(reading('other'));
    expect(await reads.read('s1', 'gate:a')).toBe(await first);
    expect(pending).toHaveLength(2);

    epoch.value = 2; // a statement that may write started
    const after = reads.read('s1', 'gate:a');
    expect(pending).toHaveLength(3);
    pending[2]!.settle(reading('two'));
    expect(await after).toEqual(reading('two'));
  });

  it('never hands a caller who came after a write the read that began before it', async () => {
    const { inner, pending } = controlledReads();
    const epoch = { value: 1, current: () => epoch.value };
    const reads = new CachedGateReads(inner, epoch);
    const before = reads.read('s1', 'gate:a');
    epoch.value = 2;
    const after = reads.read('s1', 'gate:a');
    expect(pending).toHaveLength(2);
    pending[1]!.settle(reading('new'));
    pending[0]!.settle(reading('old'));
    expect(await before).toEqual(reading('old'));
    expect(await after).toEqual(reading('new'));
    expect(await reads.read('s1', 'gate:a')).toEqual(reading('new'));
    expect(pending).toHaveLength(2);
  });

  it('keeps no failed read: the next caller reads again', async () => {
    const { inner, pending } = controlledReads();
    const reads = new CachedGateReads(inner, { current: () => 7 });
    const failed = reads.read('s1', 'gate:a');
    pending[0]!.fail(new Error('database gone'));
    await expect(failed).rejects.toThrow('database gone');
    const retried = reads.read('s1', 'gate:a');
    expect(pending).toHaveLength(2);
    pending[1]!.settle(reading('back'));
    expect(await retried).toEqual(reading('back'));
  });

  it('tells sessions apart even when their ids and call keys run into each other', async () => {
    const { inner, pending } = controlledReads();
    const reads = new CachedGateReads(inner, { current: () => 1 });
    void reads.read('a', 'b\nc');
    void reads.read('a\nb', 'c');
    expect(pending).toHaveLength(2);
  });
});
