import { afterEach, describe, expect, it } from '@jest/globals';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { canonicalAuditBody } from '@talon/audit';
import type { AuditOutboxRecord } from '@talon/contracts';
import { JsonLogger } from '@talon/service-runtime';
import { JournalAuditOutbox } from './journal-audit-outbox.js';

const logger = new JsonLogger({ service: 'test', instanceId: 'test' }, 'error', () => undefined);
const record = (): AuditOutboxRecord => ({
  recordId: randomUUID(),
  at: new Date().toISOString(),
  kind: 'tool.call',
  actor: 'operator:test',
  sessionId: null,
  callId: randomUUID(),
  tool: 'echo',
  argsHash: null,
  outcome: 'ok',
  durationMs: 1,
  data: {},
});

/** A chain that holds none of the records it is asked about. */
const nothingStored = async (): Promise<ReadonlySet<string>> => new Set<string>();

/** A chain that commits only when told to: records stay uncommitted until `release`. */
function heldChain() {
  const waiting: Array<() => void> = [];
  return {
    commit: () => new Promise<void>((resolve) => waiting.push(resolve)),
    release: () => waiting.splice(0).forEach((resolve) => resolve()),
    get held() {
      return waiting.length;
    },
  };
}

describe('JournalAuditOutbox', () => {
  const dirs: string[] = [];
  const newDir = () => {
    const dir = mkdtempSync(join(tmpdir(), 'talon-journal-unit-'));
    dirs.push(dir);
    return dir;
  };
  afterEach(() => dirs.splice(0).forEach((dir) => rmSync(dir, { recursive: true, force: true })));

  it('refuses records past its bound while the chain does not commit, and takes them again once it does', async () => {
    const chain = heldChain();
    const journal = new JournalAuditOutbox(newDir(), logger, { maxUncommitted: 3 });
    await journal.start(chain.commit, nothingStored);
    for (let i = 0; i < 3; i++) await journal.publish(record());
    await expect(journal.publish(record())).rejects.toMatchObject({
      code: 'UNAVAILABLE',
      details: { reason: 'full', held: 3 },
    });
    expect(chain.held).toBe(3);
    expect(await journal.drained(20)).toBe(false);
    chain.release();
    await new Promise((resolve) => setImmediate(resolve));
    expect(await journal.drained(20)).toBe(true);
    await journal.publish(record());
    chain.release();
    await journal.stop();
  });

  it('writes the records of one turn together, in order, and still starts a new segment when one is full', async () => {
    const dir = newDir();
    const chain = heldChain();
    const journal = new JournalAuditOutbox(dir, logger, { segmentRecords: 4 });
    await journal.start(chain.commit, nothingStored);
    const records = Array.from({ length: 10 }, record);
    const published = records.map((entry) => journal.publish(entry));
    expect(chain.held).toBe(0); // nothing is handed on before it is written
    await Promise.all(published);
    expect(chain.held).toBe(10);
    const segments = readdirSync(dir).sort();
    const lines = segments.map((name) =>
      readFileSync(join(dir, name), 'utf8')
        .trimEnd()
        .split('\n')
        .map((line) => (JSON.parse(line) as AuditOutboxRecord).recordId),
    );
    expect(lines.map((segment) => segment.length)).toEqual([4, 4, 2]);
    expect(lines.flat()).toEqual(records.map((entry) => entry.recordId));
    chain.release();
    await journal.stop();
    expect(readdirSync(dir)).toEqual([]);
  });

  it('keeps what the chain has not committed when stop gives up waiting, for the next start', async () => {
    const dir = newDir();
    const chain = heldChain();
    const journal = new JournalAuditOutbox(dir, logger, { stopWaitMs: 20 });
    await journal.start(chain.commit, nothingStored);
    const kept = [record(), record()];
    for (const entry of kept) await journal.publish(entry);
    await journal.stop();
    await expect(journal.publish(record())).rejects.toMatchObject({
      code: 'UNAVAILABLE',
      details: { reason: 'not-taking-records' },
    });
    expect(readdirSync(dir)).toHaveLength(1);
    const replayed: AuditOutboxRecord[] = [];
    const next = new JournalAuditOutbox(dir, logger);
    await next.start(async (entry) => void replayed.push(entry), nothingStored);
    expect(replayed.map((entry) => entry.recordId)).toEqual(kept.map((entry) => entry.recordId));
    await next.stop();
    expect(readdirSync(dir)).toEqual([]);
  });

  it('writes each record as its canonical JSON with the id in front, reads it back as the record, and hands the text on', async () => {
    const dir = newDir();
    const handed: Array<{ record: AuditOutboxRecord; body: string | undefined }> = [];
    const journal = new JournalAuditOutbox(dir, logger, { stopWaitMs: 20 });
    // The first chain hands each record on with the text it was given, and never commits: the next start
    // finds both records still in the journal.
    await journal.start(
      (entry, body) =>
        new Promise<void>(() => {
          handed.push({ record: entry, body });
        }),
      nothingStored,
    );
    const nested = {
      ...record(),
      sessionId: randomUUID(),
      argsHash: 'ab'.repeat(32),
      durationMs: null,
      data: { b: ['x', 'y'], a: 'quote " and \\', '10': { z: 1, a: [null] } },
    };
    const plain = record();
    await journal.publish(nested);
    await journal.publish(plain);
    expect(handed).toEqual([
      { record: nested, body: canonicalAuditBody(nested) },
      { record: plain, body: canonicalAuditBody(plain) },
    ]);
    const [segment] = readdirSync(dir);
    const [first, second] = readFileSync(join(dir, segment!), 'utf8').trimEnd().split('\n');
    expect(first).toBe(`{"recordId":"${nested.recordId}",${canonicalAuditBody(nested).slice(1)}`);
    expect(JSON.parse(first!)).toEqual(nested);
    expect(JSON.parse(second!)).toEqual(plain);
    await journal.stop();
    const replayed: Array<{ record: AuditOutboxRecord; body: string | undefined }> = [];
    const next = new JournalAuditOutbox(dir, logger);
    await next.start(async (entry, body) => void replayed.push({ record: entry, body }), nothingStored);
    expect(replayed).toEqual([
      { record: nested, body: undefined },
      { record: plain, body: undefined },
    ]);
    await next.stop();
  });

  it('leaves out at start the records up to the last one the chain holds, and deletes the segments they fill', async () => {
    const dir = newDir();
    const journal = new JournalAuditOutbox(dir, logger, { segmentRecords: 3, stopWaitMs: 20 });
    await journal.start(() => new Promise<void>(() => undefined), nothingStored); // nothing commits
    const records = Array.from({ length: 8 }, record);
    for (const entry of records) await journal.publish(entry);
    await journal.stop();
    expect(readdirSync(dir)).toHaveLength(3);
    // The chain kept the id of the last record of each batch it stored: records 1 and 4 (of 0–7).
    const asked: string[][] = [];
    const replayed: AuditOutboxRecord[] = [];
    const next = new JournalAuditOutbox(dir, logger);
    await next.start(
      async (entry) => void replayed.push(entry),
      async (ids) => {
        asked.push([...ids]);
        return new Set([records[1]!.recordId, records[4]!.recordId]);
      },
    );
    expect(asked).toEqual([records.map((entry) => entry.recordId)]);
    expect(replayed.map((entry) => entry.recordId)).toEqual(records.slice(5).map((entry) => entry.recordId));
    await next.stop();
    expect(readdirSync(dir)).toEqual([]);
  });

  it('deletes at start a segment whose records the chain holds, and commits nothing of it', async () => {
    const dir = newDir();
    const journal = new JournalAuditOutbox(dir, logger, { segmentRecords: 2, stopWaitMs: 20 });
    await journal.start(() => new Promise<void>(() => undefined), nothingStored);
    const records = Array.from({ length: 4 }, record);
    for (const entry of records) await journal.publish(entry);
    await journal.stop();
    const [first, second] = readdirSync(dir).sort();
    const handed: AuditOutboxRecord[] = [];
    const next = new JournalAuditOutbox(dir, logger, { stopWaitMs: 20 });
    await next.start(
      (entry) =>
        new Promise<void>(() => {
          handed.push(entry); // never committed
        }),
      async () => new Set([records[1]!.recordId]),
    );
    // The first segment (records 0 and 1) is gone at once; the second waits for its records' commits.
    expect(first).not.toBe(second);
    expect(readdirSync(dir).sort()).toEqual([second]);
    expect(handed.map((entry) => entry.recordId)).toEqual(records.slice(2).map((entry) => entry.recordId));
    await next.stop();
  });
});
