import { randomUUID } from 'node:crypto';
import type pg from 'pg';
import type { ReadEpoch } from './read-epoch.js';

/** The channel migration 0014's triggers announce a changed table on (the payload is its name). */
export const TABLE_CHANGE_CHANNEL = 'talon_table_change';

/** The tables whose every change is announced (migration 0014). */
export const NOTIFIED_TABLES: ReadonlySet<string> = new Set(['session_grant', 'session']);

/** How often the listening connection is proven alive, and how long the proof may take. */
const PING_INTERVAL_MS = 1_000;
const PING_TIMEOUT_MS = 1_000;
/** The wait before listening again after the connection was lost (doubled up to the cap). */
const RETRY_MS = 250;
const MAX_RETRY_MS = 5_000;

/** What {@link NotifiedEpoch} reports about its connection. */
export type NotifiedEpochLog = (
  level: 'info' | 'warn',
  message: string,
  fields?: Record<string, unknown>,
) => void;

/**
 * The change epoch on PostgreSQL, which several orchestrators write: one connection of its own listens to
 * {@link TABLE_CHANGE_CHANNEL}, and each announced change moves the count of readers of that table. A change
 * commits before its notice arrives, so a reading may outlive it by that delivery (well under a millisecond
 * to a few on one network), on the orchestrator that made it as on the others.
 *
 * Nothing is vouched for while the connection is not listening (before the first LISTEN, after it is lost,
 * until it listens again), nor for tables outside {@link NOTIFIED_TABLES}: every call then gets a new
 * value, so nothing is kept. Notices are proven to arrive before it vouches and every second after: it
 * sends one of its own and waits for it to come back. A connection on which it does not come back in time is
 * ended and opened again, so one that died without a word stops vouching within about two seconds, and one
 * whose notices never arrive (a pooler in transaction mode) never vouches.
 */
export class NotifiedEpoch implements ReadEpoch {
  private readonly counts = new Map<string, number>();
  /** Moves each time listening starts: changes made while nobody listened were not heard. */
  private generation = 0;
  /** Handed out while nothing is vouched for: below every vouched count, each one new. */
  private unvouched = -1;
  private client: pg.Client | undefined;
  private listening = false;
  private closed = false;
  private retryMs = RETRY_MS;
  private retryTimer: NodeJS.Timeout | undefined;
  private pingTimer: NodeJS.Timeout | undefined;
  private listeners: Array<() => void> = [];
  /** The ping notice being waited for. */
  private echo: { payload: string; heard: () => void } | undefined;

  constructor(
    private readonly connect: () => pg.Client,
    private readonly log: NotifiedEpochLog = () => undefined,
  ) {}

  current(tables?: readonly string[]): number {
    if (!this.listening || tables === undefined) return this.unvouched--;
    let count = this.generation;
    for (const table of tables) {
      if (!NOTIFIED_TABLES.has(table)) return this.unvouched--;
      count += this.counts.get(table) ?? 0;
    }
    return count;
  }

  /** Whether changes are being heard now. */
  get isListening(): boolean {
    return this.listening;
  }

  /** Starts listening; resolves once it listens or its first attempt failed (it keeps trying). */
  start(): Promise<void> {
    return this.listen();
  }

  /** Resolves once it listens (at once if it does). */
  whenListening(): Promise<void> {
    if (this.listening) return Promise.resolve();
    return new Promise((resolve) => this.listeners.push(resolve));
  }

  /** The backend process of the listening connection (tests end it to stage a lost connection). */
  get backendPid(): number | undefined {
    return (this.client as unknown as { processID?: number } | undefined)?.processID;
  }

  async close(): Promise<void> {
    this.closed = true;
    this.stopListening();
    clearTimeout(this.retryTimer);
    const client = this.client;
    this.client = undefined;
    await client?.end().catch(() => undefined);
  }

  private async listen(): Promise<void> {
    if (this.closed) return;
    const client = this.connect();
    this.client = client;
    client.on('notification', (notice) => {
      if (notice.channel !== TABLE_CHANGE_CHANNEL || notice.payload === undefined) return;
      if (notice.payload === this.echo?.payload) this.echo.heard();
      else if (NOTIFIED_TABLES.has(notice.payload))
        this.counts.set(notice.payload, (this.counts.get(notice.payload) ?? 0) + 1);
    });
    client.on('error', (error) => this.lost(client, error));
    client.on('end', () => this.lost(client, new Error('the connection ended')));
    try {
      await client.connect();
      await client.query(`LISTEN ${TABLE_CHANGE_CHANNEL}`);
      // Vouch only once a notice of its own came back: behind a pooler in transaction mode a LISTEN may sit
      // on a server connection whose notices never reach this client.
      await this.ping(client);
    } catch (error) {
      this.lost(client, error);
      return;
    }
    if (this.client !== client || this.closed) return;
    if (this.generation > 0) this.log('info', 'hearing the table change notices again');
    this.generation++;
    this.listening = true;
    this.retryMs = RETRY_MS;
    this.pingTimer = setInterval(() => {
      // One ping at a time: one still waiting fails by its own deadline.
      if (!this.echo) void this.ping(client).catch((error: unknown) => this.lost(client, error));
    }, PING_INTERVAL_MS);
    this.pingTimer.unref();
    for (const resolve of this.listeners.splice(0)) resolve();
  }

  /**
   * Sends a notice on the channel and waits for it to come back (the whole way a change's notice takes);
   * rejects when the query fails or the notice is not back within {@link PING_TIMEOUT_MS}.
   */
  private async ping(client: pg.Client): Promise<void> {
    const payload = `ping:${randomUUID()}`;
    let timer: NodeJS.Timeout | undefined;
    try {
      await Promise.race([
        new Promise<void>((heard) => {
          this.echo = { payload, heard };
        }),
        client
          .query('SELECT pg_notify($1, $2)', [TABLE_CHANGE_CHANNEL, payload])
          .then(() => new Promise(() => undefined)),
        new Promise((_, reject) => {
          timer = setTimeout(
            () => reject(new Error('a ping notice did not come back in time')),
            PING_TIMEOUT_MS,
          );
        }),
      ]);
    } finally {
      clearTimeout(timer);
      if (this.echo?.payload === payload) this.echo = undefined;
    }
  }

  /** Stops vouching at once, ends the connection and listens again after a pause. */
  private lost(client: pg.Client, error: unknown): void {
    if (this.client !== client) return;
    this.client = undefined;
    const wasListening = this.listening;
    this.stopListening();
    client.removeAllListeners('end');
    client.on('error', () => undefined);
    void client.end().catch(() => undefined);
    if (this.closed) return;
    if (wasListening)
      this.log('warn', 'lost the table change notices; readings are not kept until they are back', {
        error: String(error),
      });
    this.retryTimer = setTimeout(() => void this.listen(), this.retryMs);
    this.retryTimer.unref();
    this.retryMs = Math.min(this.retryMs * 2, MAX_RETRY_MS);
  }

  private stopListening(): void {
    this.listening = false;
    clearInterval(this.pingTimer);
    this.pingTimer = undefined;
  }
}
