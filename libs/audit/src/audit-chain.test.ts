import { createHash } from 'node:crypto';
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

/** An operator's `echo` call with the given `data`, as a record of the given time. */
function operatorRecord(data: Record<string, unknown>, at = '2026-12-03T10:00:00.000Z'): AuditRecord {
  return {
    at,
    kind: 'tool.call',
    actor: 'operator',
    sessionId: null,
    callId: 'c-1',
    tool: 'echo',
    argsHash: null,
    outcome: 'ok',
    durationMs: 4,
    data,
  };
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

  it('hashes as the chains already stored were hashed (sorted keys, undefined left out, arrays in order)', () => {
    const record = operatorRecord({
      z: [1, { b: 'x"\\', a: null }],
      a: true,
      skipped: undefined,
      '10': 'n',
      '2': 'm',
    });
    // Computed by the first implementation; a change of the canonical form would break every stored chain.
    expect(computeAuditHash(GENESIS_HASH, record)).toBe(
      'f86379c046260c3d4c23495cb4d807a64241b28558027cce0dad42516882809a',
    );
    // A tool call's flat data, written by one JSON.stringify since 2026-12-07: computed by the writer before it.
    const flat = operatorRecord({
      truncated: false,
      instanceId: 'tool-worker-1',
      attempts: 1,
      redactions: ['token'],
    });
    expect(computeAuditHash(GENESIS_HASH, flat)).toBe(
      '69367d53cba34eb404b3fe28a42c419db7ba613299962bbaada904fbb799d5f8',
    );
  });

  it('hashes every shape of data as sorted-key JSON, whichever way the text is built', () => {
    // An independent writer of the canonical form: keys sorted by code unit at every level, members
    // that are undefined left out, undefined array items as null.
    const reference = (value: unknown): string => {
      if (Array.isArray(value))
        return `[${Array.from({ length: value.length }, (_, index) => reference(value[index] ?? null)).join(',')}]`;
      if (value !== null && typeof value === 'object') {
        const members = Object.keys(value)
          .sort((a, b) => (a < b ? -1 : a > b ? 1 : 0))
          .filter((key) => (value as Record<string, unknown>)[key] !== undefined)
          .map((key) => `${JSON.stringify(key)}:${reference((value as Record<string, unknown>)[key])}`);
        return `{${members.join(',')}}`;
      }
      return JSON.stringify(value ?? null);
    };
    const nullPrototype = Object.assign(Object.create(null) as Record<string, unknown>, { b: 1, a: 2 });
    const shapes: Array<Record<string, unknown>> = [
      {},
      { attempts: 1, instanceId: 'tool-worker-1', truncated: false, redactions: [] },
      { a: 1, b: 'two', c: null, d: true },
      { z: 'last', a: 'first', m: undefined },
      { list: ['x', 'y"', 3, null, false], other: -0, big: 1e21, nan: Number.NaN },
      { Z: 1, a: 2, é: 3, '\u{1F600}': 4, '\uFFFF': 5, ' ': 6, '': 7 },
      { '10': 'ten', '9': 'nine', a: 'a' },
      { '01': 'not an index', '1.5': 'nor this', '-1': 'nor this' },
      JSON.parse('{"__proto__": "own", "a": 1}') as Record<string, unknown>,
      { nested: { b: 1, a: [{ d: 1, c: 2 }] }, top: 'x' },
      { holes: [1, , 3], undefinedItem: [undefined, 'x'] }, // eslint-disable-line no-sparse-arrays
      { quote: 'a"b\\c\n\u0000', lone: '\uD800' },
      nullPrototype,
    ];
    const base = operatorRecord({}, '2026-12-07T03:00:00.000Z');
    for (const data of shapes)
      for (const record of [
        { ...base, data },
        { ...base, data, durationMs: null, tool: null, sessionId: 's' },
      ]) {
        const body = reference({ ...record });
        const expected = createHash('sha256').update(`${GENESIS_HASH}\n${body}`).digest('hex');
        expect({ data, hash: computeAuditHash(GENESIS_HASH, record) }).toEqual({ data, hash: expected });
      }
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
