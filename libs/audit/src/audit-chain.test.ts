import { describe, expect, it } from '@jest/globals';
import { computeAuditHash, verifyAuditChain } from './audit-chain.js';
import { GENESIS_HASH, type AuditRecord, type ChainedAuditRecord } from './audit-record.js';

function chain(count: number): ChainedAuditRecord[] {
  const rows: ChainedAuditRecord[] = [];
  let prevHash = GENESIS_HASH;
  for (let i = 1; i <= count; i++) {
    const record: AuditRecord = {
      at: new Date(Date.UTC(2026, 10, 30, 12, 0, i)).toISOString(),
      kind: 'tool.call',
      actor: 'session:s1',
      sessionId: 's1',
      callId: `c${i}`,
      tool: 'echo',
      argsHash: 'ab'.repeat(32),
      outcome: 'ok',
      durationMs: i,
      data: { z: 1, a: [1, { b: 2 }] },
    };
    const hash = computeAuditHash(prevHash, record);
    rows.push({ ...record, id: i, prevHash, hash });
    prevHash = hash;
  }
  return rows;
}

describe('audit chain', () => {
  it('verifies an intact chain and reports its head', () => {
    const rows = chain(5);
    expect(verifyAuditChain(rows)).toEqual({ ok: true, checked: 5, headHash: rows[4]!.hash });
  });

  it('hashes independently of key order', () => {
    const [row] = chain(1);
    const reordered = { ...row!, data: { a: [1, { b: 2 }], z: 1 } };
    expect(computeAuditHash(GENESIS_HASH, reordered)).toBe(row!.hash);
  });

  it('names an edited row', () => {
    const rows = chain(5);
    rows[2] = { ...rows[2]!, outcome: 'denied' };
    expect(verifyAuditChain(rows)).toMatchObject({
      ok: false,
      checked: 2,
      firstBreak: { id: '3', reason: 'edited' },
    });
  });

  it('names the row after a deleted one', () => {
    const rows = chain(5);
    rows.splice(1, 1);
    expect(verifyAuditChain(rows)).toMatchObject({
      ok: false,
      firstBreak: { id: '3', reason: 'deleted_before' },
    });
  });

  it('sees deleted first rows', () => {
    expect(verifyAuditChain(chain(3).slice(1))).toMatchObject({
      ok: false,
      firstBreak: { id: '2', reason: 'bad_genesis' },
    });
  });
});
