import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { setTimeout as sleep } from 'node:timers/promises';
import type { Principal } from '@talon/auth';
import { openDatabase, PGLITE_IN_MEMORY, type Database } from '@talon/persistence';
import { createTestDatabase, type TestDatabase } from '@talon/testing';
import { SessionAccess } from '../src/auth/session-access.js';

const agent = (id: string): Principal => ({ id, name: id, scope: 'agent' });
const operator: Principal = { id: 'tok_operator', name: 'operator', scope: 'operator' };

/**
 * Who may use a session, on both backends and both PGlite hosts. Owners are shared until a session may have
 * been created, deleted or re-owned (`Database.changeEpoch`), so the read of every call of an agent token is
 * not repeated.
 */
describe.each([
  ['postgres', false],
  ['pglite in process', false],
  ['pglite in its own thread', true],
] as const)('session access on %s', (label, thread) => {
  let postgres: TestDatabase | undefined;
  let db: Database;
  let reads = 0;
  let access: SessionAccess;

  beforeAll(async () => {
    if (label === 'postgres') {
      postgres = await createTestDatabase();
      db = await openDatabase({ kind: 'postgres', url: postgres.url });
    } else {
      db = await openDatabase({ kind: 'pglite', dataDir: PGLITE_IN_MEMORY, thread });
    }
    // The same database, its session reads counted.
    const session = db.prisma.session;
    const counted = {
      ...db,
      prisma: {
        session: {
          findUnique: (args: Parameters<typeof session.findUnique>[0]) => {
            reads++;
            return session.findUnique(args);
          },
        },
      },
    } as unknown as Database;
    access = new SessionAccess(counted);
  }, 60_000);

  afterAll(async () => {
    await db?.close();
    await postgres?.drop();
  });

  it("lets an agent token use its own sessions only, answers NOT_FOUND for others', and sees a deletion at once", async () => {
    const before = db.changeEpoch.current(['session']);
    const own = (await db.prisma.session.create({ data: { ownerId: 'tok_a' } })).id;
    const operators = (await db.prisma.session.create({ data: {} })).id;
    // On PostgreSQL the two creations are heard after their commits: wait for both notices.
    while (db.changeEpoch.current(['session']) < before + 2) await sleep(2);
    const missing = '00000000-0000-4000-8000-000000000000';

    reads = 0;
    await access.assertCanUse(agent('tok_a'), own);
    await access.assertCanUse(agent('tok_a'), own);
    await access.assertCanUse(operator, operators);
    await access.assertCanUse(operator, missing); // operators are not checked
    expect(reads).toBe(1);

    for (const [principal, sessionId] of [
      [agent('tok_b'), own],
      [agent('tok_a'), operators],
      [agent('tok_a'), missing],
      [undefined, own],
    ] as const) {
      await expect(access.assertCanUse(principal, sessionId)).rejects.toMatchObject({
        code: 'NOT_FOUND',
        message: expect.stringContaining('create one with sessions.create'),
      });
    }

    // The audit append of every call (an insert into audit_event alone) leaves the owners kept.
    reads = 0;
    await db.executeText(
      `INSERT INTO audit_event (kind, actor, outcome, prev_hash, hash, chain_seq) VALUES ('test', 'system', 'ok', 'p', 'h', 1)`,
      { table: 'audit_event' },
    );
    await access.assertCanUse(agent('tok_a'), own);
    expect(reads).toBe(0);

    // A session that is gone is gone for the next call (on PostgreSQL once its deletion's notice is heard:
    // it travels after the commit).
    const standing = db.changeEpoch.current(['session']);
    await db.prisma.session.delete({ where: { id: own } });
    while (db.changeEpoch.current(['session']) === standing) await sleep(2);
    await expect(access.assertCanUse(agent('tok_a'), own)).rejects.toMatchObject({ code: 'NOT_FOUND' });
  });
});
