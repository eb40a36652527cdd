import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import pg from 'pg';
import { openDatabase, type Database } from '@talon/persistence';
import {
  connectTalonApi,
  createTestDatabase,
  findFreePort,
  startNatsTestServer,
  startServiceProcess,
  type NatsTestServer,
  type ServiceProcess,
  type TalonApiClient,
  type TestDatabase,
} from '@talon/testing';
import { AUDIT_OUTBOX, type AuditOutboxRecord } from '@talon/contracts';
import { JsonLogger } from '@talon/service-runtime';
import { AuditLog } from '../src/audit/audit-log.js';
import { echoCallsAcrossKill } from './support/echo-calls-across-kill.js';
import { JetStreamAuditOutbox } from '../src/audit/jetstream-audit-outbox.js';

describe('the audit log never drops a row', () => {
  let database: TestDatabase;
  let opened: Database;
  let sql: pg.Client;

  beforeAll(async () => {
    database = await createTestDatabase();
    opened = await openDatabase({ kind: 'postgres', url: database.url });
    sql = new pg.Client({ connectionString: database.url });
    await sql.connect();
  }, 60_000);

  afterAll(async () => {
    await sql?.end();
    await opened?.close();
    await database?.drop();
  });

  const rowsFor = async (callIds: string[]) =>
    Number(
      (await sql.query('SELECT count(*)::int AS n FROM audit_event WHERE call_id = ANY($1)', [callIds]))
        .rows[0].n,
    );

  it('keeps every record through failing inserts and writes them all once the database accepts again', async () => {
    const failures: number[] = [];
    const audit = new AuditLog(opened, { onWriteError: (_error, attempt) => failures.push(attempt) });
    // Every insert fails until the constraint is dropped (NOT VALID: existing rows are not checked).
    await sql.query('ALTER TABLE audit_event ADD CONSTRAINT refuse_all CHECK (false) NOT VALID');
    const callIds = Array.from({ length: 120 }, () => randomUUID());
    let written = 0;
    const appended = callIds.map((callId, index) =>
      audit
        .append({
          kind: 'tool.call',
          actor: 'operator',
          callId,
          // A session id that is not a UUID (the column is one) must not poison the batch.
          sessionId: index % 10 === 0 ? 'not-a-uuid' : randomUUID(),
          outcome: 'ok',
          durationMs: index,
        })
        .then(() => void written++),
    );
    try {
      const deadline = Date.now() + 20_000;
      while (failures.length < 2 && Date.now() < deadline) await sleep(50);
      expect(failures.length).toBeGreaterThanOrEqual(2);
      expect(written).toBe(0);
    } finally {
      await sql.query('ALTER TABLE audit_event DROP CONSTRAINT IF EXISTS refuse_all');
    }
    await Promise.all(appended);
    expect(written).toBe(120);
    expect(await rowsFor(callIds)).toBe(120);
    const moved = await sql.query(
      "SELECT count(*)::int AS n FROM audit_event WHERE session_id IS NULL AND data::jsonb->>'sessionId' = 'not-a-uuid'",
    );
    expect(moved.rows[0].n).toBe(12);
    expect(await audit.verify()).toMatchObject({ ok: true, checked: 120 });
  }, 60_000);

  it('stores data as JSON would carry it: undefined dropped, dates as text, and what JSON cannot carry named', async () => {
    const audit = new AuditLog(opened);
    const circular: Record<string, unknown> = { a: 1 };
    circular.self = circular;
    const cases: Array<[Record<string, unknown>, Record<string, unknown>]> = [
      [
        { attempts: 1, instanceId: undefined, truncated: false, redactions: ['token'], note: null },
        { attempts: 1, truncated: false, redactions: ['token'], note: null },
      ],
      [
        { at: new Date(0), nested: { gone: undefined, kept: 2 }, list: [1, undefined] },
        { at: '1970-01-01T00:00:00.000Z', nested: { kept: 2 }, list: [1, null] },
      ],
      [
        { ratio: Number.NaN, size: Number.POSITIVE_INFINITY },
        { ratio: null, size: null },
      ],
      [
        JSON.parse('{"__proto__": "kept", "a": 1}') as Record<string, unknown>,
        JSON.parse('{"__proto__": "kept", "a": 1}'),
      ],
    ];
    for (const [index, [data]] of cases.entries())
      await audit.append({ kind: 'test.data', actor: 'system', outcome: 'ok', durationMs: index, data });
    await audit.append({
      kind: 'test.data',
      actor: 'system',
      outcome: 'ok',
      durationMs: 98,
      data: { big: 1n },
    });
    await audit.append({ kind: 'test.data', actor: 'system', outcome: 'ok', durationMs: 99, data: circular });
    const { records } = await audit.list({ kind: 'test.data', limit: 10 });
    const byIndex = [...records].sort((a, b) => a.durationMs! - b.durationMs!);
    for (const [index, [, stored]] of cases.entries()) expect(byIndex[index]!.data).toEqual(stored);
    expect(Object.hasOwn(byIndex[3]!.data, '__proto__')).toBe(true);
    expect(byIndex[4]!.data).toEqual({ unserializable: expect.stringMatching(/BigInt/) });
    expect(byIndex[5]!.data).toEqual({ unserializable: expect.stringMatching(/circular/i) });
    expect(await audit.verify()).toMatchObject({ ok: true });
  });

  // Rows are written with literal values (one pass into PGlite): hostile text must come back exactly, on both drivers.
  const HOSTILE = [
    "it's",
    "'); DROP TABLE audit_event; --",
    "back\\slash \\' and \\",
    "$1 $$ $tag$ E'x'",
    'ünïcødé 漢字 🦅',
    '"double" quotes',
  ];
  it.each(['postgres', 'pglite'] as const)(
    'stores hostile text exactly as given and keeps the chain verifiable (%s)',
    async (kind) => {
      const target =
        kind === 'postgres' ? opened : await openDatabase({ kind: 'pglite', dataDir: 'memory://' });
      try {
        const audit = new AuditLog(target);
        const sessionId = randomUUID();
        await Promise.all(
          HOSTILE.map((text, index) =>
            audit.append({
              kind: 'test.hostile',
              actor: text,
              sessionId,
              callId: `${text} ${index}`,
              tool: text,
              argsHash: text,
              outcome: text,
              durationMs: index,
              data: { text, nested: { text }, index },
            }),
          ),
        );
        const listed = await audit.list({ sessionId, limit: 50 });
        const stored = [...listed.records].sort((a, b) => Number(a.durationMs) - Number(b.durationMs));
        expect(
          stored.map((record) => [record.actor, record.callId, record.tool, record.argsHash, record.outcome]),
        ).toEqual(HOSTILE.map((text, index) => [text, `${text} ${index}`, text, text, text]));
        expect(stored.map((record) => record.data)).toEqual(
          HOSTILE.map((text, index) => ({ text, nested: { text }, index })),
        );
        expect(await audit.verify()).toMatchObject({ ok: true });
        expect(Number(await target.prisma.auditEvent.count())).toBeGreaterThanOrEqual(HOSTILE.length);
      } finally {
        if (target !== opened) await target.close();
      }
    },
    60_000,
  );

  it('verifies a chain longer than one page, and still finds an edited row on a later page', async () => {
    const audit = new AuditLog(opened);
    await Promise.all(
      Array.from({ length: 2_300 }, (_, index) =>
        audit.append({ kind: 'test.page', actor: 'system', outcome: 'ok', durationMs: index }),
      ),
    );
    const verified = await audit.verify();
    expect(verified).toMatchObject({ ok: true });
    expect(verified.checked).toBeGreaterThanOrEqual(2_420);
    const { rows } = await sql.query(
      "SELECT chain_seq AS id FROM audit_event WHERE kind = 'test.page' ORDER BY chain_seq OFFSET 2100 LIMIT 1",
    );
    await sql.query("UPDATE audit_event SET outcome = 'tampered' WHERE chain_seq = $1", [rows[0].id]);
    expect(await audit.verify()).toMatchObject({
      ok: false,
      firstBreak: { id: String(rows[0].id), reason: 'edited' },
    });
    await sql.query("UPDATE audit_event SET outcome = 'ok' WHERE chain_seq = $1", [rows[0].id]);
    // Data that is no longer JSON: the row is still listed (its text kept) and verify names it.
    const [{ data }] = (await sql.query('SELECT data FROM audit_event WHERE chain_seq = $1', [rows[0].id]))
      .rows;
    await sql.query("UPDATE audit_event SET data = '{not json' WHERE chain_seq = $1", [rows[0].id]);
    expect(await audit.verify()).toMatchObject({
      ok: false,
      firstBreak: { id: String(rows[0].id), reason: 'edited' },
    });
    const listed = await audit.list({ before: String(BigInt(rows[0].id) + 1n), limit: 1 });
    expect(listed.records).toMatchObject([{ id: String(rows[0].id), data: { unreadableData: '{not json' } }]);
    await sql.query('UPDATE audit_event SET data = $1 WHERE chain_seq = $2', [data, rows[0].id]);
    expect(await audit.verify()).toMatchObject({ ok: true });
  }, 60_000);

  it('keeps one chain when two writers append at once, each from its own connection pool', async () => {
    const other = await openDatabase({ kind: 'postgres', url: database.url });
    try {
      const failures: number[] = [];
      const writers = [opened, other].map(
        (db) => new AuditLog(db, { onWriteError: (_error, attempt) => failures.push(attempt) }),
      );
      // Rounds of concurrent batches: each writer's known head goes stale whenever the other one wrote.
      for (let round = 0; round < 20; round++) {
        await Promise.all(
          writers.flatMap((audit, writer) =>
            Array.from({ length: 1 + (round % 4) * 3 }, (_, index) =>
              audit.append({
                kind: 'test.two-writers',
                actor: `writer-${writer}`,
                outcome: 'ok',
                durationMs: index,
              }),
            ),
          ),
        );
      }
      const { rows } = await sql.query(
        "SELECT count(*)::int AS n FROM audit_event WHERE kind = 'test.two-writers'",
      );
      expect(rows[0].n).toBe(2 * [0, 1, 2, 3].reduce((sum, step) => sum + 5 * (1 + step * 3), 0));
      expect(await writers[0]!.verify()).toMatchObject({ ok: true });
      // A race the head check cannot see is refused by the unique position and retried, never written as a
      // fork: one row per predecessor, and positions 1, 2, 3… without a gap.
      const forks = await sql.query(
        'SELECT prev_hash FROM audit_event GROUP BY prev_hash HAVING count(*) > 1',
      );
      expect(forks.rows).toEqual([]);
      const positions = await sql.query(
        'SELECT count(*)::int AS n, min(chain_seq)::int AS first, max(chain_seq)::int AS last FROM audit_event',
      );
      const { n, first, last } = positions.rows[0];
      expect([first, last]).toEqual([1, n]);
      console.log(`two writers: ${rows[0].n} rows, ${failures.length} retried writes`);
    } finally {
      await other.close();
    }
  }, 60_000);

  describe('through the JetStream outbox', () => {
    let nats: NatsTestServer;
    const logger = new JsonLogger({ service: 'orchestrator', instanceId: 'test' }, 'error');
    const record = (fields: Partial<AuditOutboxRecord> = {}): AuditOutboxRecord => ({
      recordId: randomUUID(),
      at: new Date().toISOString(),
      kind: 'test.outbox',
      actor: 'system',
      sessionId: null,
      callId: randomUUID(),
      tool: null,
      argsHash: null,
      outcome: 'ok',
      durationMs: 1,
      data: {},
      ...fields,
    });
    const rowsOf = async (recordIds: string[]) =>
      Number(
        (
          await sql.query('SELECT count(*)::int AS n FROM audit_event WHERE record_id = ANY($1::uuid[])', [
            recordIds,
          ])
        ).rows[0].n,
      );

    beforeAll(async () => {
      nats = await startNatsTestServer();
    }, 60_000);

    afterAll(async () => {
      await nats?.stop();
    });

    it('answers once the record is in the outbox, and the drain writes it into the chain', async () => {
      const connection = await nats.connect('orchestrator');
      const audit = new AuditLog(opened, { outbox: new JetStreamAuditOutbox(connection, logger) });
      try {
        const callIds = Array.from({ length: 200 }, () => randomUUID());
        // Not draining yet: the records wait in the stream, durable, and the appends resolve anyway.
        await Promise.all(
          callIds.map((callId) =>
            audit.append({ kind: 'test.outbox', actor: 'system', outcome: 'ok', callId }),
          ),
        );
        expect(await rowsFor(callIds)).toBe(0);
        await audit.start();
        await audit.flush();
        expect(await rowsFor(callIds)).toBe(200);
        expect(await audit.verify()).toMatchObject({ ok: true });
      } finally {
        await audit.stop();
        await connection.close();
      }
    }, 60_000);

    it('stores a record delivered twice once, and one written directly before its delivery once', async () => {
      const connection = await nats.connect('orchestrator');
      const outbox = new JetStreamAuditOutbox(connection, logger);
      const audit = new AuditLog(opened, { outbox });
      try {
        const direct = record();
        await audit.commit(direct);
        const twice = record();
        const js = (await import('@nats-io/jetstream')).jetstream(connection);
        // The same record under two message ids, so JetStream's own duplicate window lets both through.
        for (const id of [twice.recordId, randomUUID()])
          await js.publish(AUDIT_OUTBOX.subject, JSON.stringify(twice), { msgID: id });
        await outbox.publish(direct);
        await audit.start();
        await audit.flush();
        expect(await rowsOf([direct.recordId])).toBe(1);
        expect(await rowsOf([twice.recordId])).toBe(1);
        expect(await audit.verify()).toMatchObject({ ok: true });
      } finally {
        await audit.stop();
        await connection.close();
      }
    }, 60_000);

    it('keeps a message that is not a record as an audit.unreadable row instead of dropping it', async () => {
      const connection = await nats.connect('orchestrator');
      const audit = new AuditLog(opened, { outbox: new JetStreamAuditOutbox(connection, logger) });
      try {
        await audit.start();
        const js = (await import('@nats-io/jetstream')).jetstream(connection);
        const id = randomUUID();
        await js.publish(AUDIT_OUTBOX.subject, '{"kind": 42', { msgID: id });
        await audit.flush();
        const { rows } = await sql.query(
          'SELECT kind, outcome, data FROM audit_event WHERE record_id = $1::uuid',
          [id],
        );
        expect(rows).toMatchObject([{ kind: 'audit.unreadable', outcome: 'unreadable' }]);
      } finally {
        await audit.stop();
        await connection.close();
      }
    }, 60_000);

    it('writes directly when the outbox refuses a record', async () => {
      const connection = await nats.connect('orchestrator');
      await connection.close();
      const refused: unknown[] = [];
      const audit = new AuditLog(opened, {
        outbox: new JetStreamAuditOutbox(connection, logger),
        onOutboxError: (error) => refused.push(error),
      });
      const callId = randomUUID();
      await audit.append({ kind: 'test.outbox', actor: 'system', outcome: 'ok', callId });
      expect(refused).toHaveLength(1);
      expect(await rowsFor([callId])).toBe(1);
    }, 60_000);

    it('hands the records a writer took but never committed to another writer after the ack wait', async () => {
      const first = await nats.connect('orchestrator');
      const second = await nats.connect('orchestrator');
      const taken: string[] = [];
      const stuck = new JetStreamAuditOutbox(first, logger, { ackWaitMs: 1_000 });
      const audit = new AuditLog(opened, {
        outbox: new JetStreamAuditOutbox(second, logger, { ackWaitMs: 1_000 }),
      });
      try {
        // The first writer takes everything and never commits (its database hangs), then its process dies.
        await stuck.start((taken_) => {
          taken.push(taken_.recordId);
          return new Promise<void>(() => undefined);
        });
        const records = Array.from({ length: 50 }, () => record());
        for (const each of records) await stuck.publish(each);
        const deadline = Date.now() + 10_000;
        while (taken.length < 50 && Date.now() < deadline) await sleep(20);
        expect(taken.length).toBe(50);
        await first.close();
        await audit.start();
        await audit.flush();
        expect(await rowsOf(records.map((each) => each.recordId))).toBe(50);
      } finally {
        await audit.stop();
        await second.close();
      }
    }, 60_000);
  });

  describe.each(['off', 'jetstream'])('through the orchestrator, TALON_AUDIT_OUTBOX=%s', (outbox) => {
    let nats: NatsTestServer;
    let orchestrator: ServiceProcess;
    let worker: ServiceProcess;
    let api: TalonApiClient;
    let env: Record<string, string>;

    beforeAll(async () => {
      nats = await startNatsTestServer();
      env = {
        NATS_URL: nats.url,
        DATABASE_URL: database.url,
        TALON_AUDIT_OUTBOX: outbox,
        TALON_HTTP_PORT: String(await findFreePort()),
        TALON_GRPC_PORT: String(await findFreePort()),
      };
      [orchestrator, worker] = await Promise.all([
        startServiceProcess('orchestrator', env),
        startServiceProcess('tool-worker', { NATS_URL: nats.url }),
      ]);
      api = await connectTalonApi(nats.url);
    }, 120_000);

    afterAll(async () => {
      await api?.close();
      await Promise.all([orchestrator, worker].map((service) => service?.kill()));
      await nats?.stop();
    });

    it('refuses a tools.call whose sessionId is not a UUID before running the tool', async () => {
      const callId = randomUUID();
      const reply = await api.call('tools.call', {
        tool: 'echo',
        params: { message: 'x' },
        sessionId: 'not-a-uuid',
        callId,
      });
      expect(reply).toMatchObject({
        ok: false,
        error: { code: 'SCHEMA_VIOLATION', details: { violations: [{ path: '/sessionId' }] } },
      });
    });

    it('loses no audit row of an answered call when the orchestrator is SIGKILLed under load', async () => {
      await api.ok('tools.call', { tool: 'echo', params: { message: 'warm' } }, 10_000);
      const answered = await echoCallsAcrossKill(api, () => orchestrator.kill());
      expect(answered.length).toBeGreaterThan(50);
      // Committed before each reply, or (with the outbox) in the stream before each reply.
      if (outbox === 'off') expect(await rowsFor(answered)).toBe(answered.length);
      // Records the dead orchestrator took from the outbox but had not committed come back to the next one
      // after the consumer's ack wait; `audit.verify` waits for the outbox to be written.
      orchestrator = await startServiceProcess('orchestrator', env);
      expect(await api.ok('audit.verify', {}, 90_000)).toMatchObject({ ok: true });
      expect(await rowsFor(answered)).toBe(answered.length);
      // Stored once each, though some were delivered twice (taken by the dead one and by the next).
      const twice = await sql.query(
        'SELECT count(*)::int AS n FROM (SELECT call_id FROM audit_event WHERE call_id = ANY($1) GROUP BY call_id HAVING count(*) > 1) d',
        [answered],
      );
      expect(twice.rows[0].n).toBe(0);
    }, 180_000);
  });
});
