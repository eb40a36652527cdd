import { afterAll, beforeAll, describe, expect, it, jest } from '@jest/globals';
import pg from 'pg';
import { openDatabase } from '../src/create-database.js';
import type { Database } from '../src/database.js';
import { EpochReadCache } from '../src/epoch-read-cache.js';
import { NotifiedEpoch } from '../src/notified-epoch.js';
import { createPostgresTestDatabase, type PostgresTestDatabase } from './postgres-test-database.js';

jest.setTimeout(30_000);

/** Resolves once `moved()` holds, or fails after `ms`. */
async function until(moved: () => boolean, ms = 5_000): Promise<number> {
  const started = performance.now();
  while (!moved()) {
    if (performance.now() - started > ms) throw new Error(`not within ${ms} ms`);
    await new Promise((resolve) => setTimeout(resolve, 2));
  }
  return performance.now() - started;
}

/**
 * Two clients of one PostgreSQL database stand for two orchestrators: what one changes, the other hears
 * (migration 0014's triggers, NOTIFY at commit), and while it cannot hear, it keeps nothing.
 */
describe('the change epoch on PostgreSQL', () => {
  let postgres: PostgresTestDatabase;
  let a: Database;
  let b: Database;
  let epoch: NotifiedEpoch;

  beforeAll(async () => {
    postgres = await createPostgresTestDatabase();
    a = await openDatabase({ kind: 'postgres', url: postgres.url });
    b = await openDatabase({ kind: 'postgres', url: postgres.url });
    epoch = b.changeEpoch as NotifiedEpoch;
    await epoch.whenListening();
  });

  afterAll(async () => {
    await a?.close();
    await b?.close();
    await postgres?.drop();
  });

  it("hears another client's change of each announced table, and only of that table", async () => {
    const gate = ['session_grant'];
    const owners = ['session'];
    let gateCount = epoch.current(gate);
    let ownerCount = epoch.current(owners);
    expect(epoch.current(gate)).toBe(gateCount); // stands still while nothing changes

    const session = await a.prisma.session.create({ data: { ownerId: 'tok_a' } });
    await until(() => epoch.current(owners) !== ownerCount);
    expect(epoch.current(gate)).toBe(gateCount);
    ownerCount = epoch.current(owners);

    // A session's own updates (its title, its message counter) and the audit append are not announced.
    await a.prisma.session.update({ where: { id: session.id }, data: { title: 'x', lastSeq: 3 } });
    await a.executeText(
      `INSERT INTO audit_event (kind, actor, outcome, prev_hash, hash, chain_seq) VALUES ('test', 'system', 'ok', 'p', 'h', 1)`,
      { table: 'audit_event' },
    );
    await a.prisma.sessionGrant.create({
      data: { sessionId: session.id, kind: 'tool', target: 'shell', action: 'deny' },
    });
    const heardAfterMs = await until(() => epoch.current(gate) !== gateCount);
    // Notices travel in order on one connection: the grant's came after anything the update would have sent.
    expect(epoch.current(owners)).toBe(ownerCount);
    expect(heardAfterMs).toBeLessThan(1_000);
    gateCount = epoch.current(gate);

    await a.prisma.session.update({ where: { id: session.id }, data: { ownerId: 'tok_b' } });
    await until(() => epoch.current(owners) !== ownerCount);
    ownerCount = epoch.current(owners);
    await a.prisma.session.delete({ where: { id: session.id } });
    await until(() => epoch.current(owners) !== ownerCount);
    await a.prisma.sessionGrant.deleteMany({ where: { sessionId: session.id } });
    await until(() => epoch.current(gate) !== gateCount);
  });

  it('vouches for no other table: each call gets a new count', () => {
    const first = epoch.current(['audit_event']);
    expect(epoch.current(['audit_event'])).not.toBe(first);
    expect(epoch.current(['session_grant', 'approval'])).not.toBe(
      epoch.current(['session_grant', 'approval']),
    );
    expect(epoch.current()).not.toBe(epoch.current());
  });

  it('keeps a reading until a change is heard, and none while the notices are lost', async () => {
    const session = await a.prisma.session.create({ data: {} });
    let reads = 0;
    const cache = new EpochReadCache(epoch, ['session_grant']);
    const grants = () =>
      cache.read(session.id, async () => {
        reads++;
        return b.query<{ action: string }>(
          'SELECT action FROM session_grant WHERE session_id = $1::text::uuid',
          [session.id],
        );
      });
    await until(() => epoch.isListening);
    const count = epoch.current(['session_grant']);
    expect(await grants()).toEqual([]);
    expect(await grants()).toEqual([]);
    expect(reads).toBe(1);

    await a.prisma.sessionGrant.create({
      data: { sessionId: session.id, kind: 'tool', target: 'shell', action: 'allow' },
    });
    await until(() => epoch.current(['session_grant']) !== count);
    expect(await grants()).toEqual([{ action: 'allow' }]);
    expect(reads).toBe(2);

    // The listening connection is ended from the server's side: from then on nothing is kept, and a
    // change made meanwhile (its notice lost) is read at once.
    const killer = new pg.Client({ connectionString: postgres.url });
    await killer.connect();
    try {
      await killer.query('SELECT pg_terminate_backend($1)', [epoch.backendPid]);
    } finally {
      await killer.end();
    }
    await until(() => !epoch.isListening);
    await a.prisma.sessionGrant.updateMany({ where: { sessionId: session.id }, data: { action: 'deny' } });
    expect(await grants()).toEqual([{ action: 'deny' }]);
    expect(await grants()).toEqual([{ action: 'deny' }]);
    expect(reads).toBe(4);

    // It listens again by itself, and keeps readings again.
    await epoch.whenListening();
    await grants();
    const settled = reads;
    await grants();
    expect(reads).toBe(settled);
  });
});

/**
 * A client whose connection opens, listens and echoes `answered` notices, then stops answering (a network
 * that died without a word); or, with `answered` 0, one whose notices never arrive (a pooler in transaction
 * mode).
 */
class SilentClient {
  private readonly handlers = new Map<string, Array<(...args: unknown[]) => void>>();
  ended = false;
  constructor(private answered: number) {}
  on(event: string, handler: (...args: unknown[]) => void): this {
    this.handlers.set(event, [...(this.handlers.get(event) ?? []), handler]);
    return this;
  }
  removeAllListeners(event: string): this {
    this.handlers.delete(event);
    return this;
  }
  async connect(): Promise<void> {}
  query(sql: string, params: string[] = []): Promise<unknown> {
    if (sql.startsWith('LISTEN')) return Promise.resolve({});
    if (this.answered-- <= 0) return new Promise(() => undefined);
    for (const handler of this.handlers.get('notification') ?? [])
      handler({ channel: params[0], payload: params[1] });
    return Promise.resolve({});
  }
  async end(): Promise<void> {
    this.ended = true;
  }
}

describe('NotifiedEpoch on a connection that stops answering', () => {
  it('stops vouching within about two seconds, ends that connection and opens another', async () => {
    const clients: SilentClient[] = [];
    const warnings: string[] = [];
    const epoch = new NotifiedEpoch(
      () => {
        const client = new SilentClient(clients.length === 0 ? 1 : 5);
        clients.push(client);
        return client as unknown as pg.Client;
      },
      (level, message) => {
        if (level === 'warn') warnings.push(message);
      },
    );
    await epoch.start();
    try {
      expect(epoch.isListening).toBe(true);
      expect(epoch.current(['session_grant'])).toBe(epoch.current(['session_grant']));
      const lostAfterMs = await until(() => !epoch.isListening, 4_000);
      expect(lostAfterMs).toBeGreaterThan(900);
      expect(epoch.current(['session_grant'])).not.toBe(epoch.current(['session_grant']));
      expect(clients[0]!.ended).toBe(true);
      expect(warnings).toEqual([expect.stringContaining('lost the table change notices')]);
      await until(() => clients.length >= 2 && epoch.isListening, 2_000);
    } finally {
      await epoch.close();
    }
  });
});

describe('NotifiedEpoch where its own notices never come back', () => {
  it('never vouches, and keeps trying', async () => {
    let opened = 0;
    const epoch = new NotifiedEpoch(() => {
      opened++;
      return new SilentClient(0) as unknown as pg.Client;
    });
    await epoch.start();
    try {
      expect(epoch.isListening).toBe(false);
      expect(epoch.current(['session_grant'])).not.toBe(epoch.current(['session_grant']));
      await until(() => opened >= 2, 3_000);
      expect(epoch.isListening).toBe(false);
    } finally {
      await epoch.close();
    }
  });
});
