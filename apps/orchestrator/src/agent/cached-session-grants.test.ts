import { describe, expect, it } from '@jest/globals';
import type { SessionGrants } from '@talon/agent';
import { CachedSessionGrants } from './cached-session-grants.js';

describe('CachedSessionGrants', () => {
  it('keeps grants per session on the epoch of session_grant alone', async () => {
    const reads: string[] = [];
    const store = {
      get: async (sessionId: string): Promise<SessionGrants> => {
        reads.push(sessionId);
        return { byEffect: {}, byTool: { [sessionId]: 'allow' } };
      },
    };
    const asked: Array<readonly string[] | undefined> = [];
    const epoch = { value: 1 };
    const grants = new CachedSessionGrants(store, {
      current: (tables) => {
        asked.push(tables);
        return epoch.value;
      },
    });
    expect(await grants.get('s1')).toEqual({ byEffect: {}, byTool: { s1: 'allow' } });
    expect(await grants.get('s1')).toBe(await grants.get('s1'));
    await grants.get('s2');
    expect(reads).toEqual(['s1', 's2']);
    epoch.value = 2; // session_grant may have changed
    await grants.get('s1');
    expect(reads).toEqual(['s1', 's2', 's1']);
    expect(new Set(asked.map((tables) => tables?.join()))).toEqual(new Set(['session_grant']));
  });
});
