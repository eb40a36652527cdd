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
  it("keys readings on the epoch of the gate's own tables, so the audit append does not drop them", async () => {
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
    expect(await cached.approval('s1', 'gate:a')).toBeUndefined();
    await cached.approval('s1', 'gate:a');
    expect(reads).toEqual(['grants s1', 'approval s1/gate:a']);
    expect(new Set(asked.map((tables) => tables?.join()))).toEqual(new Set(['session_grant,approval']));
  });

  it('tells sessions and calls apart even when their ids and call keys run into each other', async () => {
    const { inner, reads } = countedReads();
    const cached = new CachedGateReads(inner, { current: () => 1 });
    await cached.approval('a', 'b\nc');
    await cached.approval('a\nb', 'c');
    await cached.grants('a');
    await cached.grants('a\nb');
    expect(reads).toHaveLength(4);
  });
});
