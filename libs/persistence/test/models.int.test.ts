import { afterAll, beforeAll, describe, expect, it, jest } from '@jest/globals';
import { openDatabase } from '../src/create-database.js';
import type { Database } from '../src/database.js';
import { Prisma } from '../src/generated/prisma/client.js';
import { BACKENDS, type EmptyDatabase } from './backends.js';

// A new PGlite cluster takes seconds to initialise on a loaded machine; jest's project-level testTimeout is not applied.
jest.setTimeout(60_000);

describe.each(BACKENDS)('models on $label', (backend) => {
  let database: EmptyDatabase;
  let db: Database;

  beforeAll(async () => {
    database = await backend.create();
    db = await openDatabase(database.config);
  });

  afterAll(async () => {
    await db?.close();
    await database.dispose();
  });

  it('round-trips a session with its messages in seq order', async () => {
    const session = await db.prisma.session.create({
      data: {
        title: 'Ward round',
        metadata: { locale: 'zh-CN', tags: ['a', 'b'] },
        messages: {
          create: [
            { seq: 2, role: 'assistant', content: [{ type: 'text', text: '好的' }] },
            { seq: 1, role: 'user', content: [{ type: 'text', text: '每天早上9点提醒我查房' }] },
            { seq: 3, role: 'tool', content: { callId: 'c1', output: null } },
          ],
        },
      },
    });
    const back = await db.prisma.session.findUniqueOrThrow({
      where: { id: session.id },
      include: { messages: { orderBy: { seq: 'asc' } } },
    });
    expect(back).toMatchObject({
      title: 'Ward round',
      autonomous: false,
      metadata: { locale: 'zh-CN', tags: ['a', 'b'] },
    });
    expect(back.id).toMatch(/^[0-9a-f-]{36}$/);
    expect(back.createdAt).toBeInstanceOf(Date);
    expect(back.messages.map((message) => [message.seq, message.role])).toEqual([
      [1, 'user'],
      [2, 'assistant'],
      [3, 'tool'],
    ]);
    expect(back.messages[0]!.content).toEqual([{ type: 'text', text: '每天早上9点提醒我查房' }]);
    expect(back.messages[2]!.content).toEqual({ callId: 'c1', output: null });
  });

  it('refuses a second message with the same seq in one session, and one for a missing session', async () => {
    const session = await db.prisma.session.create({
      data: { messages: { create: { seq: 1, role: 'user', content: 'hi' } } },
    });
    const duplicate = db.prisma.message.create({
      data: { sessionId: session.id, seq: 1, role: 'user', content: 'again' },
    });
    await expect(duplicate).rejects.toMatchObject({ code: 'P2002' });
    const orphan = db.prisma.message.create({
      data: { sessionId: '00000000-0000-4000-8000-000000000000', seq: 1, role: 'user', content: 'lost' },
    });
    await expect(orphan).rejects.toMatchObject({ code: 'P2003' });
  });

  it('deletes the messages of a deleted session', async () => {
    const session = await db.prisma.session.create({
      data: { autonomous: true, messages: { create: [{ seq: 1, role: 'user', content: 'x' }] } },
    });
    await db.prisma.session.delete({ where: { id: session.id } });
    expect(await db.prisma.message.count({ where: { sessionId: session.id } })).toBe(0);
  });

  it('appends audit events keyed by their chain position and reads them back in order', async () => {
    const first = await db.prisma.auditEvent.create({
      data: {
        kind: 'tool.call',
        actor: 'agent',
        outcome: 'ok',
        prevHash: '',
        hash: 'h1',
        chainSeq: 1n,
        tool: 'echo',
        argsHash: 'a1',
        durationMs: 3,
      },
    });
    const second = await db.prisma.auditEvent.create({
      data: {
        kind: 'approval.decision',
        actor: 'user:alice',
        outcome: 'approved',
        prevHash: 'h1',
        hash: 'h2',
        chainSeq: 2n,
        data: JSON.stringify({ approvalId: 'x' }),
      },
    });
    expect([first.chainSeq, second.chainSeq]).toEqual([1n, 2n]);
    const chain = await db.prisma.auditEvent.findMany({ orderBy: { chainSeq: 'asc' } });
    expect(chain.map((event) => [event.prevHash, event.hash])).toEqual([
      ['', 'h1'],
      ['h1', 'h2'],
    ]);
    expect(chain[0]).toMatchObject({
      sessionId: null,
      callId: null,
      tool: 'echo',
      durationMs: 3,
      data: '{}',
    });
    await db.prisma.auditEvent.update({ where: { chainSeq: first.chainSeq }, data: { outcome: 'edited' } });
    await db.prisma.auditEvent.delete({ where: { chainSeq: second.chainSeq } });
    expect(await db.prisma.auditEvent.count()).toBe(1);
  });

  it('creates, lists, resolves and deletes an approval', async () => {
    const expiresAt = new Date(Date.now() + 60_000);
    const approval = await db.prisma.approval.create({
      data: {
        sessionId: '11111111-1111-4111-8111-111111111111',
        callId: 'call-1',
        tool: 'shell',
        paramsRedacted: { command: 'rm -rf ./build', token: '[redacted]' },
        expiresAt,
      },
    });
    expect(approval).toMatchObject({ status: 'pending', resolvedAt: null, resolvedBy: null, decision: null });
    expect(approval.expiresAt.getTime()).toBe(expiresAt.getTime());
    const pending = await db.prisma.approval.findMany({
      where: { sessionId: approval.sessionId, status: 'pending' },
    });
    expect(pending.map((row) => row.id)).toEqual([approval.id]);
    const resolved = await db.prisma.approval.update({
      where: { id: approval.id },
      data: {
        status: 'approved',
        decision: 'approve_always',
        resolvedAt: new Date(),
        resolvedBy: 'user:alice',
      },
    });
    expect(resolved).toMatchObject({
      status: 'approved',
      decision: 'approve_always',
      resolvedBy: 'user:alice',
    });
    await db.prisma.approval.delete({ where: { id: approval.id } });
    expect(await db.prisma.approval.count()).toBe(0);
  });

  it('upserts session grants keyed by session, kind and target', async () => {
    const sessionId = '22222222-2222-4222-8222-222222222222';
    const key = { sessionId_kind_target: { sessionId, kind: 'tool', target: 'http' } };
    await db.prisma.sessionGrant.upsert({
      where: key,
      create: { sessionId, kind: 'tool', target: 'http', action: 'ask' },
      update: {},
    });
    await db.prisma.sessionGrant.upsert({
      where: key,
      create: { sessionId, kind: 'tool', target: 'http', action: 'ask' },
      update: { action: 'allow' },
    });
    await db.prisma.sessionGrant.create({
      data: { sessionId, kind: 'effect', target: 'network', action: 'deny' },
    });
    const grants = await db.prisma.sessionGrant.findMany({ where: { sessionId }, orderBy: { kind: 'asc' } });
    expect(grants.map((grant) => [grant.kind, grant.target, grant.action])).toEqual([
      ['effect', 'network', 'deny'],
      ['tool', 'http', 'allow'],
    ]);
    await db.prisma.sessionGrant.deleteMany({ where: { sessionId } });
    expect(await db.prisma.sessionGrant.count({ where: { sessionId } })).toBe(0);
  });

  it('stores sealed secrets under a unique name with their injection rules', async () => {
    const sealed = 'talon1.abcd1234.aXY.dGFn.Y2lwaGVy';
    await db.prisma.secret.create({
      data: { name: 'GITHUB_TOKEN', sealed, hostPatterns: ['api.github.com'] },
    });
    const back = await db.prisma.secret.findUniqueOrThrow({ where: { name: 'GITHUB_TOKEN' } });
    expect(back).toMatchObject({ sealed, hostPatterns: ['api.github.com'], location: { kind: 'bearer' } });
    await expect(db.prisma.secret.create({ data: { name: 'GITHUB_TOKEN', sealed } })).rejects.toMatchObject({
      code: 'P2002',
    });
    await db.prisma.secret.update({ where: { name: 'GITHUB_TOKEN' }, data: { sealed: 'talon1.x.y.z.w' } });
    expect((await db.prisma.secret.findUniqueOrThrow({ where: { name: 'GITHUB_TOKEN' } })).sealed).toBe(
      'talon1.x.y.z.w',
    );
    await db.prisma.secret.delete({ where: { name: 'GITHUB_TOKEN' } });
    expect(await db.prisma.secret.findMany({ select: { name: true } })).toEqual([]);
  });

  it('tracks a job from pending to completed', async () => {
    const job = await db.prisma.job.create({
      data: { kind: 'prompt', payload: { kind: 'prompt', prompt: 'hi' } },
    });
    expect(job).toMatchObject({ status: 'pending', result: null, error: null, attempt: 0, maxAttempts: 1 });
    const done = await db.prisma.job.update({
      where: { id: job.id },
      data: { status: 'completed', result: { ok: true } },
    });
    expect(done.result).toEqual({ ok: true });
    expect(done.updatedAt.getTime()).toBeGreaterThanOrEqual(job.updatedAt.getTime());
    const failed = await db.prisma.job.create({
      data: { kind: 'prompt', status: 'failed', error: 'model unreachable' },
    });
    expect(await db.prisma.job.findMany({ where: { status: 'failed' } })).toEqual([
      expect.objectContaining({ id: failed.id }),
    ]);
    await db.prisma.job.deleteMany({});
    expect(await db.prisma.job.count()).toBe(0);
  });

  describe('memory documents', () => {
    beforeAll(async () => {
      await db.prisma.memoryDocument.createMany({
        data: [
          {
            path: 'notes/deploy.md',
            content: 'Deploy the orchestrator with docker compose; PostgreSQL holds sessions.',
          },
          { path: 'notes/people.md', content: 'Alice reviews approvals. Bob owns the wasm runner.' },
          { path: 'daily/2026-11-30.md', content: 'Ward round at nine. Remember the migration runner.' },
        ],
      });
    });

    interface Hit {
      path: string;
      rank: number;
    }

    const search = (query: string): Promise<Hit[]> =>
      db.prisma.$queryRaw<Hit[]>(Prisma.sql`
        SELECT path, ts_rank("search", websearch_to_tsquery('simple', ${query}))::float8 AS rank
        FROM memory_document
        WHERE "search" @@ websearch_to_tsquery('simple', ${query})
        ORDER BY rank DESC, path`);

    it('finds documents by words of their content and path', async () => {
      expect((await search('approvals')).map((hit) => hit.path)).toEqual(['notes/people.md']);
      expect((await search('runner')).map((hit) => hit.path)).toEqual([
        'daily/2026-11-30.md',
        'notes/people.md',
      ]);
      expect((await search('deploy')).map((hit) => hit.path)).toEqual(['notes/deploy.md']);
      expect((await search('"wasm runner"')).map((hit) => hit.path)).toEqual(['notes/people.md']);
      expect((await search('runner -wasm')).map((hit) => hit.path)).toEqual(['daily/2026-11-30.md']);
      expect(await search('kubernetes')).toEqual([]);
    });

    it('supports prefix queries through to_tsquery', async () => {
      const rows = await db.prisma.$queryRaw<{ path: string }[]>(
        Prisma.sql`SELECT path FROM memory_document WHERE "search" @@ to_tsquery('simple', ${'orchestr:*'}) ORDER BY path`,
      );
      expect(rows).toEqual([{ path: 'notes/deploy.md' }]);
    });

    it('keeps the search column in step with the content on update', async () => {
      await db.prisma.memoryDocument.update({
        where: { path: 'notes/people.md' },
        data: { content: 'Carol now reviews approvals.' },
      });
      expect((await search('carol')).map((hit) => hit.path)).toEqual(['notes/people.md']);
      expect(await search('bob')).toEqual([]);
    });

    it('reads, lists and deletes documents through the client', async () => {
      const document = await db.prisma.memoryDocument.findUniqueOrThrow({
        where: { path: 'notes/deploy.md' },
      });
      expect(document.content).toContain('docker compose');
      expect(document.updatedAt).toBeInstanceOf(Date);
      const tree = await db.prisma.memoryDocument.findMany({
        where: { path: { startsWith: 'notes/' } },
        select: { path: true },
      });
      expect(tree.map((row) => row.path).sort()).toEqual(['notes/deploy.md', 'notes/people.md']);
      await expect(
        db.prisma.memoryDocument.create({ data: { path: 'notes/deploy.md', content: 'dup' } }),
      ).rejects.toMatchObject({
        code: 'P2002',
      });
      await db.prisma.memoryDocument.delete({ where: { path: 'notes/deploy.md' } });
      expect(await search('deploy')).toEqual([]);
    });
  });
});
