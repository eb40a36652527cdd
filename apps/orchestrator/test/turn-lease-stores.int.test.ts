import { afterAll, beforeAll, describe, expect, it, jest } from '@jest/globals';
import { setTimeout as sleep } from 'node:timers/promises';
import { InMemoryGrantStore, ApprovalQueue, type ApprovalRecord } from '@talon/agent';
import { BinaryCopyRows, openDatabase, PGLITE_IN_MEMORY, type Database } from '@talon/persistence';
import { createTestDatabase, type TestDatabase } from '@talon/testing';
import { PrismaApprovalStore } from '../src/agent/prisma-approval-store.js';
import { CachedSessionGrants } from '../src/agent/cached-session-grants.js';
import { PrismaGrantStore } from '../src/agent/prisma-grant-store.js';
import { PrismaSessionStore } from '../src/agent/prisma-session-store.js';
import { PrismaToolCallClaimStore } from '../src/agent/prisma-tool-call-claim-store.js';
import { PrismaTurnLeaseStore } from '../src/agent/prisma-turn-lease-store.js';

/**
 * The database side of exactly-once turns, on both backends: the lease on the database clock, fenced
 * message writes, one claim per tool call, `seq` and the approval cap under concurrent writers (two
 * clients of one PostgreSQL database stand for two orchestrators).
 */
describe.each(['postgres', 'pglite'] as const)('turn leases and claims on %s', (kind) => {
  let postgres: TestDatabase | undefined;
  let a: Database;
  let b: Database;

  beforeAll(async () => {
    if (kind === 'postgres') {
      postgres = await createTestDatabase();
      a = await openDatabase({ kind: 'postgres', url: postgres.url });
      b = await openDatabase({ kind: 'postgres', url: postgres.url });
    } else {
      // PGlite is one process's database: both "orchestrators" share the one client.
      a = await openDatabase({ kind: 'pglite', dataDir: PGLITE_IN_MEMORY });
      b = a;
    }
  }, 60_000);

  afterAll(async () => {
    await a?.close();
    if (b !== a) await b?.close();
    await postgres?.drop();
  });

  const newSession = async () => (await a.prisma.session.create({ data: {} })).id;

  it('keeps a lease for its owner until it expires on the database clock, whatever the process clock says', async () => {
    const sessionId = await newSession();
    const leasesA = new PrismaTurnLeaseStore(a);
    const leasesB = new PrismaTurnLeaseStore(b);
    expect(await leasesA.acquire(sessionId, 't1', 'orch-a', 1_500)).toEqual({ acquired: true });
    // Orchestrator b's clock runs an hour ahead: leases never read it. (PGlite runs inside the process,
    // so its clock is the process's: it serves one orchestrator, and there is no other clock to disagree.)
    const skew =
      kind === 'postgres'
        ? jest
            .spyOn(Date, 'now')
            .mockImplementation(() => performance.timeOrigin + performance.now() + 3_600_000)
        : undefined;
    try {
      expect(await leasesB.acquire(sessionId, 't1', 'orch-b', 1_500)).toEqual({ acquired: false });
      expect(await leasesB.listExpired(10)).not.toContain(sessionId);
    } finally {
      skew?.mockRestore();
    }
    expect([...(await leasesA.renew('orch-a', [sessionId], 1_000))]).toEqual([sessionId]);
    expect(await leasesA.acquire(sessionId, 't1', 'orch-a', 1_000)).toMatchObject({ acquired: true });
    await sleep(1_300);
    expect(await leasesB.listExpired(10)).toContain(sessionId);
    expect(await leasesB.acquire(sessionId, 't1', 'orch-b', 5_000)).toEqual({
      acquired: true,
      previousOwner: 'orch-a',
    });
    // The slow owner's renewal finds nothing, and its fenced writes are refused.
    expect(await leasesA.renew('orch-a', [sessionId], 1_000)).toEqual(new Set());
    const sessionsA = new PrismaSessionStore(a);
    const sessionsB = new PrismaSessionStore(b);
    await expect(
      sessionsA.append(sessionId, 't1', { role: 'user', content: 'late' }, { owner: 'orch-a', leased: true }),
    ).rejects.toMatchObject({ code: 'TURN_LEASE_LOST' });
    const stored = await sessionsB.append(
      sessionId,
      't1',
      { role: 'user', content: 'hello' },
      { owner: 'orch-b', leased: true },
    );
    expect(stored.seq).toBe(1);
    expect((await sessionsB.load(sessionId)).map((entry) => entry.message.content)).toEqual(['hello']);
    await leasesA.release(sessionId, 'orch-a');
    expect(await a.prisma.turnLease.findUnique({ where: { sessionId } })).toMatchObject({ owner: 'orch-b' });
    expect(await leasesB.expireAll('orch-b')).toBeGreaterThanOrEqual(1);
    expect(await leasesA.listExpired(10)).toContain(sessionId);
  });

  it('claims a tool call once, only while the lease is held, and forgets claims with the lease', async () => {
    const sessionId = await newSession();
    const leases = new PrismaTurnLeaseStore(a);
    const claimsA = new PrismaToolCallClaimStore(a);
    const claimsB = new PrismaToolCallClaimStore(b);
    await leases.acquire(sessionId, 't1', 'orch-a', 60_000);
    const fenceA = { owner: 'orch-a', leased: true };
    const calls = [
      { callId: 'c1', tool: 'shell' },
      { callId: 'c2', tool: 'echo' },
    ];
    const [first, second] = await Promise.all([
      claimsA.claim(sessionId, 't1', calls, fenceA),
      claimsB.claim(sessionId, 't1', calls, fenceA),
    ]);
    expect(first!.held && second!.held).toBe(true);
    expect([...first!.claimed, ...second!.claimed].sort()).toEqual(['c1', 'c2']);
    expect(await claimsB.claim(sessionId, 't1', calls, { owner: 'orch-b', leased: true })).toEqual({
      held: false,
      claimed: new Set(),
    });
    // A job's turn has no turn lease: the claim's uniqueness still holds.
    expect(
      await claimsB.claim(sessionId, 't1', [{ callId: 'c3', tool: 'echo' }], { owner: 'job', leased: false }),
    ).toEqual({
      held: true,
      claimed: new Set(['c3']),
    });
    expect(await claimsA.started(sessionId, ['c1', 'c9'])).toEqual(new Set(['c1']));
    await leases.release(sessionId, 'orch-a');
    expect(await claimsA.started(sessionId, ['c1', 'c2', 'c3'])).toEqual(new Set());
  });

  it('numbers 120 messages written at once from two clients 1..120 without a gap or a duplicate', async () => {
    const sessionId = await newSession();
    const stores = [new PrismaSessionStore(a), new PrismaSessionStore(b)];
    // Single appends and batches of three race on the one session row.
    const written = await Promise.all(
      Array.from({ length: 80 }, (_, index) =>
        index % 4 === 0
          ? stores[index % 2]!.appendMany(
              sessionId,
              't',
              [0, 1, 2].map((part) => ({ role: 'user' as const, content: `m${index}.${part}` })),
            )
          : stores[index % 2]!.append(sessionId, 't', { role: 'user', content: `m${index}` }).then(
              (entry) => [entry],
            ),
      ),
    );
    const seqs = written.flat().map((entry) => entry.seq);
    expect(seqs.sort((x, y) => x - y)).toEqual(Array.from({ length: 120 }, (_, index) => index + 1));
    // A batch holds consecutive numbers, in its own order.
    for (const batch of written.filter((entries) => entries.length === 3))
      expect(batch.map((entry) => entry.seq - batch[0]!.seq)).toEqual([0, 1, 2]);
    expect(await a.prisma.message.count({ where: { sessionId } })).toBe(120);
    const loaded = await stores[0]!.load(sessionId);
    expect(loaded.map((entry) => entry.seq)).toEqual(Array.from({ length: 120 }, (_, index) => index + 1));
  });

  it('refuses a message for a session that does not exist, with NOT_FOUND, and numbers a new one from 1', async () => {
    const store = new PrismaSessionStore(a);
    await expect(
      store.append('00000000-0000-4000-8000-000000000000', 't', { role: 'user', content: 'lost' }),
    ).rejects.toMatchObject({ code: 'NOT_FOUND' });
    const sessionId = await newSession();
    expect((await store.append(sessionId, 't', { role: 'user', content: 'first' })).seq).toBe(1);
  });

  it('opens a turn in one statement: the log before it, the user message appended, fenced like any append', async () => {
    const store = new PrismaSessionStore(a);
    const leases = new PrismaTurnLeaseStore(a);
    const sessionId = await newSession();
    const first = await store.openTurn(sessionId, 't1', { role: 'user', content: 'hello' });
    expect(first.history).toEqual([]);
    expect(first.appended).toMatchObject({ seq: 1, turnId: 't1', message: { content: 'hello' } });
    await store.appendMany(sessionId, 't1', [
      { role: 'assistant', content: '', toolCalls: [{ id: 'c1', name: 'echo', arguments: { text: 'x' } }] },
      { role: 'tool', toolCallId: 'c1', toolName: 'echo', content: 'x' },
    ]);
    await leases.acquire(sessionId, 't2', 'orch-a', 60_000);
    const fence = { owner: 'orch-a', leased: true };
    const second = await store.openTurn(sessionId, 't2', { role: 'user', content: 'again' }, fence);
    expect(second.history.map((entry) => [entry.seq, entry.turnId, entry.message.role])).toEqual([
      [1, 't1', 'user'],
      [2, 't1', 'assistant'],
      [3, 't1', 'tool'],
    ]);
    expect(second.appended.seq).toBe(4);
    // What it read is what a load reads, and what Prisma reads (the same instants, to the millisecond).
    const loaded = await store.load(sessionId);
    expect(loaded.slice(0, 3)).toEqual(second.history);
    const rows = await a.prisma.message.findMany({ where: { sessionId }, orderBy: { seq: 'asc' } });
    expect(loaded.map((entry) => entry.createdAt)).toEqual(rows.map((row) => row.createdAt.getTime()));
    expect(loaded[3]!.createdAt).toBe(second.appended.createdAt);
    // Without the lease nothing is written, and an unknown session is NOT_FOUND.
    await expect(
      store.openTurn(sessionId, 't3', { role: 'user', content: 'late' }, { owner: 'orch-b', leased: true }),
    ).rejects.toMatchObject({ code: 'TURN_LEASE_LOST' });
    await expect(
      store.openTurn('00000000-0000-4000-8000-000000000000', 't', { role: 'user', content: 'lost' }),
    ).rejects.toMatchObject({ code: 'NOT_FOUND' });
    expect(await store.load(sessionId)).toHaveLength(4);
  });

  it('closes a turn in one statement: the last message in, the lease and its claims gone; a lost lease writes and releases nothing', async () => {
    const sessionId = await newSession();
    const leases = new PrismaTurnLeaseStore(a);
    const claims = new PrismaToolCallClaimStore(a);
    const store = new PrismaSessionStore(b);
    await leases.acquire(sessionId, 't1', 'orch-a', 60_000);
    const fence = { owner: 'orch-a', leased: true };
    await claims.claim(sessionId, 't1', [{ callId: 'c1', tool: 'echo' }], fence);
    await store.append(sessionId, 't1', { role: 'user', content: 'hi' }, fence);
    // Another owner's close is refused and leaves the lease and the log as they were.
    await expect(
      store.closeTurn(
        sessionId,
        't1',
        { role: 'assistant', content: 'not mine' },
        { owner: 'orch-b', leased: true },
      ),
    ).rejects.toMatchObject({ code: 'TURN_LEASE_LOST' });
    expect(await leases.acquire(sessionId, 't2', 'orch-b', 60_000)).toEqual({ acquired: false });
    expect(await claims.started(sessionId, ['c1'])).toEqual(new Set(['c1']));
    const closed = await store.closeTurn(sessionId, 't1', { role: 'assistant', content: 'done' }, fence);
    expect(closed).toMatchObject({ seq: 2, turnId: 't1', message: { content: 'done' } });
    expect((await store.load(sessionId)).map((message) => message.message.content)).toEqual(['hi', 'done']);
    expect(await claims.started(sessionId, ['c1'])).toEqual(new Set());
    // The lease is free at once: the next turn may start on any orchestrator.
    expect(await leases.acquire(sessionId, 't2', 'orch-b', 60_000)).toEqual({ acquired: true });
    await expect(
      store.closeTurn(sessionId, 't1', { role: 'assistant', content: 'late' }, fence),
    ).rejects.toMatchObject({ code: 'TURN_LEASE_LOST' });
    expect(await store.load(sessionId)).toHaveLength(2);
    await leases.release(sessionId, 'orch-b');
  });

  it('holds the pending-approval cap when two orchestrators ask at once', async () => {
    const sessionId = await newSession();
    const queues = [a, b].map(
      (database) =>
        new ApprovalQueue(new PrismaApprovalStore(database), new InMemoryGrantStore(), {
          maxPendingPerSession: 3,
          pollIntervalMs: 0,
        }),
    );
    const outcomes = await Promise.allSettled(
      Array.from({ length: 12 }, (_, index) =>
        queues[index % 2]!.request({
          sessionId,
          callId: `call-${index}`,
          tool: 'shell',
          params: { command: 'true' },
          reason: 'asks',
        }),
      ),
    );
    const created = outcomes.filter((outcome) => outcome.status === 'fulfilled');
    expect(created).toHaveLength(3);
    expect(outcomes.find((outcome) => outcome.status === 'rejected')).toMatchObject({
      reason: { code: 'RATE_LIMITED' },
    });
    expect(await a.prisma.approval.count({ where: { sessionId, status: 'pending' } })).toBe(3);
    const record = (created[0] as PromiseFulfilledResult<ApprovalRecord>).value;
    expect(await new PrismaApprovalStore(b).get(record.id)).toMatchObject({
      id: record.id,
      sessionId,
      status: 'pending',
      params: { command: 'true' },
    });
  });

  it('reads an approval by its call and the session grants beside Prisma exactly as Prisma reads them', async () => {
    const sessionId = await newSession();
    const store = new PrismaApprovalStore(a);
    const queue = new ApprovalQueue(store, new InMemoryGrantStore(), { pollIntervalMs: 0 });
    expect(await store.findByCall(sessionId, 'gate:none')).toBeUndefined();
    const pending = await queue.request({
      sessionId,
      callId: 'gate:1',
      tool: 'shell',
      params: { command: 'ls "ä"', nested: { n: 1.5, list: [true, null] } },
      reason: 'asks',
    });
    expect(await store.findByCall(sessionId, 'gate:1')).toEqual(await store.get(pending.id));
    await queue.resolve(pending.id, 'approve', 'operator');
    const resolved = await store.findByCall(sessionId, 'gate:1');
    expect(resolved).toMatchObject({ status: 'approved', decision: 'approve', resolvedBy: 'operator' });
    expect(resolved).toEqual(await store.get(pending.id));
    expect(typeof resolved?.resolvedAt).toBe('number');

    const grants = new PrismaGrantStore(a);
    expect(await grants.get(sessionId)).toEqual({ byEffect: {}, byTool: {} });
    await grants.setToolGrant(sessionId, 'shell', 'allow');
    await grants.setEffectGrant(sessionId, 'network', 'deny');
    expect(await new PrismaGrantStore(b).get(sessionId)).toEqual({
      byEffect: { network: 'deny' },
      byTool: { shell: 'allow' },
    });

    // The latest approval of a call is the one found by it.
    const later = await queue.request({
      sessionId,
      callId: 'gate:1',
      tool: 'shell',
      params: { command: 'ls' },
      reason: 'asks again',
    });
    expect(await new PrismaApprovalStore(b).findByCall(sessionId, 'gate:1')).toEqual(
      await store.get(later.id),
    );
    const other = await newSession();
    expect(await store.findByCall(other, 'gate:1')).toBeUndefined();
    expect(await grants.get(other)).toEqual({ byEffect: {}, byTool: {} });
  });
});

/**
 * The policy gate's kept grants on PGlite (both hosts): whatever changes a grant, through Prisma, the
 * approval queue or the hot-path statements, moves the write epoch, so the next gated call reads it.
 */
describe.each([
  ['in process', false],
  ['in its own thread', true],
] as const)('gate readings shared on PGlite %s', (_label, thread) => {
  let db: Database;

  beforeAll(async () => {
    db = await openDatabase({ kind: 'pglite', dataDir: PGLITE_IN_MEMORY, thread });
  }, 60_000);

  afterAll(async () => {
    await db?.close();
  });

  it('reads a new grant at the next call, and shares readings meanwhile', async () => {
    const sessionId = (await db.prisma.session.create({ data: {} })).id;
    const epoch = db.changeEpoch;
    const grants = new CachedSessionGrants(new PrismaGrantStore(db), epoch);
    const first = await grants.get(sessionId);
    expect(first).toEqual({ byEffect: {}, byTool: {} });
    // Reads of any kind leave the epoch alone, so the reading is shared.
    const standing = epoch.current();
    await db.prisma.session.findMany({ where: { id: sessionId } });
    await db.query('SELECT 1 AS one', []);
    expect(epoch.current()).toBe(standing);
    expect(await grants.get(sessionId)).toBe(first);

    // The audit append (an insert or COPY into audit_event alone, once per call) leaves the readings too.
    await db.executeText(
      `INSERT INTO audit_event (kind, actor, outcome, prev_hash, hash, chain_seq) VALUES ('test', 'system', 'ok', 'p', 'h1', 1)`,
      { table: 'audit_event' },
    );
    const rows = new BinaryCopyRows();
    rows.row(6).text('test').text('system').text('ok').text('h1').text('h2').int8(2n);
    await db.copyRows!(
      'audit_event',
      ['kind', 'actor', 'outcome', 'prev_hash', 'hash', 'chain_seq'],
      rows.finish(),
    );
    expect(await db.prisma.auditEvent.count()).toBe(2);
    expect(epoch.current()).not.toBe(standing);
    expect(await grants.get(sessionId)).toBe(first);

    await new PrismaGrantStore(db).setToolGrant(sessionId, 'shell', 'deny');
    expect(await grants.get(sessionId)).toEqual({ byEffect: {}, byTool: { shell: 'deny' } });

    // "Approve always" stores an allow grant beside the approval: read at the next call.
    const queue = new ApprovalQueue(new PrismaApprovalStore(db), new PrismaGrantStore(db), {
      pollIntervalMs: 0,
    });
    const pending = await queue.request({
      sessionId,
      callId: 'gate:1',
      tool: 'write_file',
      params: {},
      reason: 'asks',
    });
    await queue.resolve(pending.id, 'approve_always', 'operator');
    expect((await grants.get(sessionId)).byTool).toEqual({ shell: 'deny', write_file: 'allow' });

    // A write by raw SQL, outside every store, moves the epoch too, whatever table it names first.
    await db.executeText(
      `INSERT INTO audit_event (kind, actor, outcome, prev_hash, hash, chain_seq) VALUES ('test', 'system', 'ok', 'h2', 'h3', 3); UPDATE session_grant SET action = 'allow' WHERE session_id = '${sessionId}' AND target = 'shell'`,
    );
    expect((await grants.get(sessionId)).byTool).toEqual({ shell: 'allow', write_file: 'allow' });
  });
});
