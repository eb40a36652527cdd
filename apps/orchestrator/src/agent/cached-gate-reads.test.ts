import { describe, expect, it } from '@jest/globals';
import type { ApprovalRecord, SessionGrants } from '@talon/agent';
import type { GateReads } from './gate-reads.js';
import { CachedGateReads } from './cached-gate-reads.js';

/** Inner reads, counted; each answers at once. */
function countedReads() {
  const reads: string[] = [];
  const inner: GateReads = {
    grants: async (sessionId) => {
      reads.push(`grants ${sessionId}`);
      return { byEffect: {}, byTool: { [sessionId]: 'allow' } } satisfies SessionGrants;
    },
    approval: async (sessionId, callKey) => {
      reads.push(`approval ${sessionId}/${callKey}`);
      return undefined as ApprovalRecord | undefined;
    },
  };
  return { inner, reads };
}

describe('CachedGateReads', () => {
  it('keeps grants per session on the epoch of session_grant alone, and reads every approval afresh', async () => {
    const { inner, reads } = countedReads();
    const asked: Array<readonly string[] | undefined> = [];
    const cached = new CachedGateReads(inner, {
      current: (tables) => {
        asked.push(tables);
        return 1;
      },
    });
    expect(await cached.grants('s1')).toEqual({ byEffect: {}, byTool: { s1: 'allow' } });
    expect(await cached.grants('s1')).toBe(await cached.grants('s1'));
    await cached.grants('s2');
    expect(await cached.approval('s1', 'gate:a')).toBeUndefined();
    await cached.approval('s1', 'gate:a');
    expect(reads).toEqual(['grants s1', 'grants s2', 'approval s1/gate:a', 'approval s1/gate:a']);
    expect(new Set(asked.map((tables) => tables?.join()))).toEqual(new Set(['session_grant']));
  });
});
