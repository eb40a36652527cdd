import type pg from 'pg';
import type { ReadEpoch } from './read-epoch.js';

/** The channel migration 0014's triggers announce a changed table on (the payload is its name). */
export const TABLE_CHANGE_CHANNEL = 'talon_table_change';

/** The tables whose every change is announced (migration 0014). */
export const NOTIFIED_TABLES: ReadonlySet<string> = new Set(['session_grant', 'approval', 'session']);

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
 * value, so nothing is kept. The connection is proven alive every second by a query with a deadline; one
 * that does not answer in time is ended and opened again, so a connection that died without a word stops
 * vouching within about two seconds.
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
      this.counts.set(notice.payload, (this.counts.get(notice.payload) ?? 0) + 1);
    });
    client.on('error', (error) => this.lost(client, error));
    client.on('end', () => this.lost(client, new Error('the connection ended')));
    try {
      await client.connect();
      await client.query(`LISTEN ${TABLE_CHANGE_CHANNEL}`);
    } catch (error) {
      this.lost(client, error);
      return;
    }
    if (this.client !== client || this.closed) return;
    if (this.generation > 0) this.log('info', 'hearing the table change notices again');
    this.generation++;
    this.listening = true;
    this.retryMs = RETRY_MS;
    this.pingTimer = setInterval(() => void this.ping(client), PING_INTERVAL_MS);
    this.pingTimer.unref();
    for (const resolve of this.listeners.splice(0)) resolve();
  }

  private async ping(client: pg.Client): Promise<void> {
    let timer: NodeJS.Timeout | undefined;
    try {
      await Promise.race([
        client.query('SELECT 1'),
        new Promise((_, reject) => {
          timer = setTimeout(() => reject(new Error('no answer to a ping')), PING_TIMEOUT_MS);
        }),
      ]);
    } catch (error) {
      this.lost(client, error);
    } finally {
      clearTimeout(timer);
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
