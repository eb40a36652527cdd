import { afterAll, beforeAll, describe, expect, it, jest } from '@jest/globals';
import { openDatabase } from '../src/create-database.js';
import type { Database } from '../src/database.js';
import { BACKENDS, type EmptyDatabase } from './backends.js';

// A new PGlite cluster takes seconds to initialise on a loaded machine.
jest.setTimeout(60_000);

const SESSION = '0193e1f2-0000-7000-8000-000000000001';

describe.each(BACKENDS)('the audit index on session ids on $label', (backend) => {
  let empty: EmptyDatabase;
  let db: Database;

  beforeAll(async () => {
    empty = await backend.create();
    db = await openDatabase(empty.config);
  });

  afterAll(async () => {
    await db?.close();
    await empty.dispose();
  });

  it('holds only rows with a session, and a search for one session reads it', async () => {
    for (const [seq, session] of [
      [1, null],
      [2, SESSION],
      [3, null],
    ] as const)
      await db.executeText(
        `INSERT INTO audit_event (kind, actor, outcome, prev_hash, hash, chain_seq, session_id)
         VALUES ('test', 'system', 'ok', 'p${seq}', 'h${seq}', ${seq}, ${session ? `'${session}'` : 'NULL'})`,
      );
    const [index] = await db.query<{ definition: string }>(
      "SELECT indexdef AS definition FROM pg_indexes WHERE indexname = 'audit_event_session_id_idx'",
      [],
    );
    expect(index?.definition).toMatch(/\(session_id\) WHERE \(session_id IS NOT NULL\)$/);
    const found = await db.prisma.auditEvent.findMany({ where: { sessionId: SESSION } });
    expect(found.map((row) => row.chainSeq)).toEqual([2n]);
    // The planner can answer `session_id = $1` from the partial index (a parameter, as Prisma sends it).
    const plan = await db.prisma.$transaction(async (tx) => {
      await tx.$executeRawUnsafe('SET LOCAL enable_seqscan = off');
      return tx.$queryRawUnsafe<Array<{ 'QUERY PLAN': string }>>(
        'EXPLAIN SELECT chain_seq FROM audit_event WHERE session_id = $1::uuid',
        SESSION,
      );
    });
    expect(plan.map((row) => row['QUERY PLAN']).join('\n')).toContain('audit_event_session_id_idx');
  });
});
