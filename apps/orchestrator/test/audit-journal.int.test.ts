import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { randomUUID } from 'node:crypto';
import {
  appendFileSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openDatabase, type Database } from '@talon/persistence';
import {
  connectTalonApi,
  findFreePort,
  startNatsTestServer,
  startServiceProcess,
  type NatsTestServer,
  type ServiceProcess,
  type TalonApiClient,
} from '@talon/testing';
import type { AuditOutboxRecord } from '@talon/contracts';
import { JsonLogger } from '@talon/service-runtime';
import { AuditLog } from '../src/audit/audit-log.js';
import { echoCallsAcrossKill } from './support/echo-calls-across-kill.js';
import { JournalAuditOutbox } from '../src/audit/journal-audit-outbox.js';

const quietLogger = (lines: string[] = []) =>
  new JsonLogger({ service: 'test', instanceId: 'test' }, 'info', (line) => void lines.push(line));

const record = (callId = randomUUID()): AuditOutboxRecord => ({
  recordId: randomUUID(),
  at: new Date().toISOString(),
  kind: 'tool.call',
  actor: 'operator:test',
  sessionId: null,
  callId,
  tool: 'echo',
  argsHash: null,
  outcome: 'ok',
  durationMs: 1,
  data: {},
});

const segments = (dir: string) => readdirSync(dir).filter((name) => name.endsWith('.jsonl'));

/** Rows in binary COPY input: after the 19-byte header, each row is a field count and length-prefixed fields. */
function binaryCopyRowCount(input: Uint8Array): number {
  const view = new DataView(input.buffer, input.byteOffset, input.byteLength);
  let at = 19;
  let rows = 0;
  for (let fields = view.getInt16(at); fields !== -1; fields = view.getInt16(at)) {
    at += 2;
    for (let field = 0; field < fields; field++) at += 4 + Math.max(view.getInt32(at), 0);
    rows++;
  }
  return rows;
}

describe('the audit journal (PGlite with a data directory)', () => {
  let database: Database;
  let base: string;

  beforeAll(async () => {
    database = await openDatabase({ kind: 'pglite', dataDir: 'memory://' });
    base = mkdtempSync(join(tmpdir(), 'talon-audit-journal-'));
  }, 60_000);

  afterAll(async () => {
    await database?.close();
    rmSync(base, { recursive: true, force: true });
  });

  const rows = async (callIds: string[]) =>
    database.prisma.auditEvent.findMany({ where: { callId: { in: callIds } }, orderBy: { chainSeq: 'asc' } });

  it('answers once the record is in the journal, commits it in a later statement, then deletes the segment', async () => {
    const dir = join(base, 'answer');
    const audit = new AuditLog(database, {
      outbox: new JournalAuditOutbox(dir, quietLogger()),
      gatherMs: 200,
    });
    await audit.start();
    const callIds = Array.from({ length: 5 }, () => randomUUID());
    for (const callId of callIds)
      await audit.append({ kind: 'tool.call', actor: 'operator:test', callId, outcome: 'ok' });
    // Answered: every record is a line of the journal, and the chain has not been written yet.
    const journal = segments(dir)
      .map((name) => readFileSync(join(dir, name), 'utf8'))
      .join('');
    for (const callId of callIds) expect(journal).toContain(callId);
    expect(await rows(callIds)).toHaveLength(0);
    await audit.flush();
    const stored = await rows(callIds);
    expect(stored.map((row) => row.callId)).toEqual(callIds);
    // In one statement: the ids are consecutive and each row links to the one before.
    expect(stored.every((row, index) => index === 0 || row.prevHash === stored[index - 1]!.hash)).toBe(true);
    // Only the statement's last row keeps its record id: it marks how far the chain got for a replay.
    const kept = await database.prisma.auditEvent.findMany({
      where: { callId: { in: callIds } },
      orderBy: { chainSeq: 'asc' },
      select: { recordId: true },
    });
    expect(kept.map((row) => row.recordId !== null)).toEqual([false, false, false, false, true]);
    await audit.stop();
    expect(segments(dir)).toEqual([]);
    expect((await audit.verify()).ok).toBe(true);
  }, 30_000);

  it('moves to a new segment every N records and deletes each once its records are committed', async () => {
    const dir = join(base, 'segments');
    const audit = new AuditLog(database, {
      outbox: new JournalAuditOutbox(dir, quietLogger(), { segmentRecords: 3 }),
      gatherMs: 200,
    });
    await audit.start();
    const callIds = Array.from({ length: 10 }, () => randomUUID());
    for (const callId of callIds)
      await audit.append({ kind: 'tool.call', actor: 'operator:test', callId, outcome: 'ok' });
    expect(segments(dir)).toHaveLength(4);
    await audit.flush();
    // The three full segments are gone; the current one stays open until it fills or the log stops.
    expect(segments(dir)).toHaveLength(1);
    expect(await rows(callIds)).toHaveLength(10);
    // One statement of ten rows: the record that filled each segment keeps its id, and so does the last.
    const kept = await database.prisma.auditEvent.findMany({
      where: { callId: { in: callIds } },
      orderBy: { chainSeq: 'asc' },
      select: { recordId: true },
    });
    expect(kept.map((row) => row.recordId !== null)).toEqual([
      false,
      false,
      true,
      false,
      false,
      true,
      false,
      false,
      true,
      true,
    ]);
    await audit.stop();
    expect(segments(dir)).toEqual([]);
  }, 30_000);

  it('commits at start what a killed process left: once each, a torn last line skipped, a damaged line kept', async () => {
    const dir = join(base, 'replay');
    const first = new AuditLog(database, { outbox: new JournalAuditOutbox(dir, quietLogger()), gatherMs: 1 });
    await first.start();
    // Committed before the "kill": their lines are still in the journal and must not be stored twice.
    const committed = [record(), record()];
    for (const entry of committed) await first.commit(entry);
    const pending = [record(), record(), record()];
    const damagedId = randomUUID();
    const tornId = randomUUID();
    writeFileSync(
      join(dir, 'segment-000000000007.jsonl'),
      [...committed, pending[0]].map((entry) => JSON.stringify(entry) + '\n').join('') +
        JSON.stringify({ ...record(), recordId: damagedId, kind: 7 }) +
        '\n' +
        JSON.stringify(pending[1]) +
        '\n',
    );
    writeFileSync(join(dir, 'segment-000000000008.jsonl'), JSON.stringify(pending[2]) + '\n');
    appendFileSync(
      join(dir, 'segment-000000000008.jsonl'),
      JSON.stringify({ ...record(), recordId: tornId }).slice(0, 40),
    );
    writeFileSync(join(dir, 'segment-000000000009.jsonl'), '');
    const logs: string[] = [];
    const second = new AuditLog(database, {
      outbox: new JournalAuditOutbox(dir, quietLogger(logs)),
      gatherMs: 1,
    });
    await second.start();
    await second.flush();
    const ids = [...committed, ...pending].map((entry) => entry.callId!);
    const stored = await rows(ids);
    expect(stored.map((row) => row.callId).sort()).toEqual([...ids].sort());
    // The damaged line's row keeps no record id (only the last journal record of a batch does): found by
    // the journal it names.
    const damaged = await database.prisma.auditEvent.findMany({
      where: { kind: 'audit.unreadable', data: { contains: 'segment-000000000007.jsonl' } },
    });
    expect(damaged).toMatchObject([{ outcome: 'unreadable' }]);
    expect(JSON.parse(damaged[0]!.data)).toMatchObject({
      journal: join(dir, 'segment-000000000007.jsonl'),
      line: 4,
    });
    expect(await database.prisma.auditEvent.count({ where: { recordId: damagedId } })).toBe(0);
    expect(await database.prisma.auditEvent.count({ where: { recordId: tornId } })).toBe(0);
    expect(logs.join('\n')).toMatch(/cut short by a crash/);
    // Numbering goes on after the highest segment found, and every replayed segment is gone.
    await second.append({ kind: 'tool.call', actor: 'operator:test', outcome: 'ok' });
    expect(segments(dir)).toEqual(['segment-000000000010.jsonl']);
    await second.stop();
    await first.stop();
    expect(segments(dir)).toEqual([]);
    expect((await second.verify()).ok).toBe(true);
  }, 30_000);

  it('writes a record directly when the disk refuses the line, and journals the next one in a new segment', async () => {
    const dir = join(base, 'full-disk');
    mkdirSync(dir);
    // Something that is not a file where a segment would be is left alone at start, not read.
    mkdirSync(join(dir, 'segment-000000000003.jsonl'));
    const refused: unknown[] = [];
    const logs: string[] = [];
    const outbox = new JournalAuditOutbox(dir, quietLogger(logs));
    const audit = new AuditLog(database, {
      outbox,
      gatherMs: 1,
      onOutboxError: (error) => refused.push(error),
    });
    await audit.start();
    expect(logs.join('\n')).toMatch(/not a file/);
    rmSync(join(dir, 'segment-000000000003.jsonl'), { recursive: true });
    // The next segment the journal opens is /dev/full: every write to it fails with ENOSPC.
    symlinkSync('/dev/full', join(dir, 'segment-000000000004.jsonl'));
    const first = randomUUID();
    await audit.append({ kind: 'tool.call', actor: 'operator:test', callId: first, outcome: 'ok' });
    expect(String(refused[0])).toMatch(/ENOSPC|no space/i);
    expect(await rows([first])).toHaveLength(1);
    const second = randomUUID();
    await audit.append({ kind: 'tool.call', actor: 'operator:test', callId: second, outcome: 'ok' });
    expect(refused).toHaveLength(1);
    expect(readFileSync(join(dir, 'segment-000000000005.jsonl'), 'utf8')).toContain(second);
    await audit.stop();
    expect(await rows([second])).toHaveLength(1);
    expect(segments(dir)).toEqual([]);
  }, 30_000);

  it('writes batches of 32 rows or more by COPY: hostile text round-trips, and two writers keep one chain', async () => {
    const copies: number[] = [];
    const counted = {
      prisma: database.prisma,
      executeText: (sql: string) => database.executeText(sql),
      copyRows: (table: string, columns: readonly string[], rows: Uint8Array) => {
        copies.push(binaryCopyRowCount(rows));
        return database.copyRows!(table, columns, rows);
      },
    };
    const hostile = ['tab\tand\nnewline', 'back\\slash \\N \\.', "it's '); --", 'ünïcødé 🦅', '\r'];
    const failures: unknown[] = [];
    const onWriteError = (error: unknown) => failures.push(error);
    const first = new AuditLog(counted, { onWriteError });
    const second = new AuditLog(counted, { onWriteError });
    const sessionId = randomUUID();
    const append = (audit: AuditLog, index: number) =>
      audit.append({
        kind: 'test.copy',
        actor: hostile[index % hostile.length]!,
        sessionId,
        callId: `${hostile[index % hostile.length]} ${index}`,
        outcome: 'ok',
        durationMs: index,
        data: { text: hostile[index % hostile.length], index },
      });
    // Both learn the head, then each queues a large batch behind it: the later one finds the head moved.
    await Promise.all([append(first, 0), append(second, 1)]);
    await Promise.all(
      Array.from({ length: 80 }, (_, index) => append(index % 2 ? second : first, index + 2)),
    );
    expect(copies.some((rows) => rows >= 32)).toBe(true);
    // Every statement went in at its first try (a refused COPY would be retried and split into INSERTs).
    expect(failures).toEqual([]);
    const stored = await database.prisma.auditEvent.findMany({
      where: { sessionId },
      orderBy: { durationMs: 'asc' },
    });
    expect(stored.map((row) => [row.actor, row.callId, JSON.parse(row.data)])).toEqual(
      Array.from({ length: 82 }, (_, index) => {
        const text = hostile[index % hostile.length]!;
        return [text, `${text} ${index}`, { text, index }];
      }),
    );
    expect((await first.verify()).ok).toBe(true);

    // Records of another writer whose time is in another form of ISO 8601: written as text by INSERT,
    // so PostgreSQL reads the time as written (the binary form takes only what toISOString gives).
    const copiesBefore = copies.length;
    const otherSession = randomUUID();
    await Promise.all(
      Array.from({ length: 40 }, (_, index) =>
        first.commit({
          recordId: randomUUID(),
          at: `2026-12-06 07:00:${String(index).padStart(2, '0')}.123456+01:00`,
          kind: 'test.copy',
          actor: 'other-writer',
          sessionId: otherSession,
          callId: null,
          tool: null,
          argsHash: null,
          outcome: 'ok',
          durationMs: index,
          data: {},
        }),
      ),
    );
    expect(copies.length).toBe(copiesBefore);
    const times = await database.query<{ at: string }>(
      `SELECT to_char(at AT TIME ZONE 'UTC', 'HH24:MI:SS.US') AS at FROM audit_event
        WHERE session_id = $1::uuid ORDER BY duration_ms`,
      [otherSession],
    );
    // In UTC, at the column's precision (milliseconds).
    expect(times.map((row) => row.at)).toEqual(
      Array.from({ length: 40 }, (_, index) => `06:00:${String(index).padStart(2, '0')}.123000`),
    );
    expect(failures).toEqual([]);
  }, 30_000);

  it('writes a record directly when the journal cannot take it', async () => {
    const refused: unknown[] = [];
    const outbox = new JournalAuditOutbox(join(base, 'refused'), quietLogger());
    const audit = new AuditLog(database, { outbox, onOutboxError: (error) => refused.push(error) });
    // Not started: the journal refuses, and the append waits for its own commit instead.
    const callId = randomUUID();
    await audit.append({ kind: 'tool.call', actor: 'operator:test', callId, outcome: 'ok' });
    expect(refused).toHaveLength(1);
    expect(String(refused[0])).toMatch(/not taking records/);
    expect(await rows([callId])).toHaveLength(1);
  }, 30_000);
});

describe.each(['off', 'on'])(
  'through the orchestrator on a PGlite data directory (TALON_PGLITE_THREAD=%s)',
  (thread) => {
    let nats: NatsTestServer;
    let orchestrator: ServiceProcess;
    let worker: ServiceProcess;
    let api: TalonApiClient;
    let stateDir: string;
    let env: Record<string, string>;

    beforeAll(async () => {
      nats = await startNatsTestServer();
      stateDir = mkdtempSync(join(tmpdir(), 'talon-journal-orchestrator-'));
      env = {
        NATS_URL: nats.url,
        TALON_STATE_DIR: stateDir,
        TALON_PGLITE_THREAD: thread,
        TALON_HTTP_PORT: String(await findFreePort()),
        TALON_GRPC_PORT: String(await findFreePort()),
      };
      [orchestrator, worker] = await Promise.all([
        startServiceProcess('orchestrator', env, { timeoutMs: 120_000 }),
        startServiceProcess('tool-worker', { NATS_URL: nats.url }),
      ]);
      api = await connectTalonApi(nats.url);
    }, 180_000);

    afterAll(async () => {
      await api?.close();
      await Promise.all([orchestrator, worker].map((service) => service?.kill()));
      await nats?.stop();
      rmSync(stateDir, { recursive: true, force: true });
    });

    it('loses no audit row of an answered call when the orchestrator is SIGKILLed under load, and stores none twice', async () => {
      expect(orchestrator.logs.find((line) => line.msg === 'database ready')).toMatchObject({
        kind: 'pglite',
        thread: thread === 'on',
      });
      await api.ok('tools.call', { tool: 'echo', params: { message: 'warm' } }, 10_000);
      const answered = await echoCallsAcrossKill(api, () => orchestrator.kill());
      expect(answered.length).toBeGreaterThan(50);
      const journal = join(stateDir, 'pglite', 'talon-audit-journal');
      // The kill left the journal behind: its records are committed again at the next start.
      expect(segments(journal).length).toBeGreaterThan(0);
      // The dead process's data-directory lock would go stale after 30 s; removed here instead of waited for.
      rmSync(join(stateDir, 'pglite.lock'), { recursive: true, force: true });
      orchestrator = await startServiceProcess('orchestrator', env, { timeoutMs: 120_000 });
      expect(await api.ok('audit.verify', {}, 60_000)).toMatchObject({ ok: true });
      // A SIGTERM right after a burst: what the journal holds is committed before the database closes.
      const burst = Array.from({ length: 64 }, () => randomUUID());
      await Promise.all(
        burst.map((callId) =>
          api.ok('tools.call', { tool: 'echo', params: { message: callId }, callId }, 10_000),
        ),
      );
      answered.push(...burst);
      expect(await orchestrator.stop()).toBe(0);
      expect(segments(journal)).toEqual([]);
      const database = await openDatabase({
        kind: 'pglite',
        dataDir: join(stateDir, 'pglite'),
        thread: thread === 'on',
      });
      try {
        const stored = await database.prisma.auditEvent.groupBy({
          by: ['callId'],
          where: { callId: { in: answered } },
          _count: { _all: true },
        });
        expect(stored).toHaveLength(answered.length);
        expect(stored.filter((row) => row._count._all !== 1)).toEqual([]);
      } finally {
        await database.close();
      }
    }, 240_000);
  },
);
