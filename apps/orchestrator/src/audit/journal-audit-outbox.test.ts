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
    await journal.start(chain.commit);
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
    await journal.start(chain.commit);
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
    await journal.start(chain.commit);
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
    await next.start(async (entry) => void replayed.push(entry));
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
    await next.start(async (entry, body) => void replayed.push({ record: entry, body }));
    expect(replayed).toEqual([
      { record: nested, body: undefined },
      { record: plain, body: undefined },
    ]);
    await next.stop();
  });
});
