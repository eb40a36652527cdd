import type { NatsConnection, Subscription } from '@nats-io/transport-node';
import {
  SUBJECTS,
  ToolAnnouncementSchema,
  ToolWithdrawalSchema,
  type Envelope,
  type ToolAnnouncement,
  type ToolWithdrawal,
} from '@talon/contracts';
import { traceHeaders, validatePayload, type JsonLogger } from '@talon/service-runtime';
import type { CatalogWarmUp, ToolCatalog } from '@talon/tool-runtime';

/** How often expired instances are swept out. */
const EXPIRE_EVERY_MS = 500;

/**
 * Keeps a ToolCatalog in step with the workers: listens to announcements and withdrawals, asks every
 * worker for its tools at start, and sweeps out instances whose announcements stopped.
 */
export class CatalogSync {
  private readonly subscriptions: Subscription[] = [];
  private sweeper?: NodeJS.Timeout;
  /** No expiry while disconnected, nor until the warm-up after a reconnect has given workers time to re-announce. */
  private sweepPausedUntil = 0;
  private disconnected = false;
  private stopped = false;

  constructor(
    private readonly connection: NatsConnection,
    private readonly catalog: ToolCatalog,
    private readonly logger: JsonLogger,
    private readonly warmUp?: CatalogWarmUp,
  ) {}

  async start(): Promise<void> {
    this.warmUp?.begin(Date.now());
    this.watchConnection();
    this.subscriptions.push(
      this.connection.subscribe(SUBJECTS.toolAnnounce, {
        callback: (_error, message) =>
          this.apply(() =>
            this.catalog.announce(this.decode<ToolAnnouncement>(message.json(), ToolAnnouncementSchema)),
          ),
      }),
      this.connection.subscribe(SUBJECTS.toolWithdraw, {
        callback: (_error, message) =>
          this.apply(() =>
            this.catalog.withdraw(
              this.decode<ToolWithdrawal>(message.json(), ToolWithdrawalSchema).instanceId,
            ),
          ),
      }),
    );
    this.sweeper = setInterval(() => {
      if (this.disconnected || Date.now() < this.sweepPausedUntil) return;
      const gone = this.catalog.expire();
      if (gone.length)
        this.logger.write('warn', 'tool instances stopped announcing; dropped from the catalog', {
          instances: gone,
        });
    }, EXPIRE_EVERY_MS);
    this.sweeper.unref();
    await this.refresh();
  }

  /** Scatter request: every worker answers with its announcement. */
  async refresh(maxWaitMs = 300): Promise<void> {
    try {
      const headers = traceHeaders();
      const replies = await this.connection.requestMany(SUBJECTS.toolCatalogRequest, undefined, {
        strategy: 'stall',
        stall: 50,
        maxWait: maxWaitMs,
        ...(headers ? { headers } : {}),
      });
      for await (const message of replies) {
        this.apply(() => {
          const envelope = message.json<Envelope<ToolAnnouncement>>();
          if (envelope.ok)
            this.catalog.announce(this.decode<ToolAnnouncement>(envelope.data, ToolAnnouncementSchema));
        });
      }
    } catch {
      // No worker is up yet: their start-up announcements will fill the catalog.
    }
  }

  stop(): void {
    this.stopped = true;
    clearInterval(this.sweeper);
    for (const subscription of this.subscriptions.splice(0)) subscription.unsubscribe();
  }

  /**
   * An outage says nothing about the workers: no expiry while it lasts, and on reconnect the catalog is
   * asked for at once (scatter) while the warm-up window keeps missing tools retryable.
   */
  private watchConnection(): void {
    void (async () => {
      for await (const status of this.connection.status()) {
        if (this.stopped) return;
        if (status.type === 'disconnect') this.disconnected = true;
        else if (status.type === 'reconnect') {
          this.disconnected = false;
          this.warmUp?.begin(Date.now());
          this.sweepPausedUntil = this.warmUp?.endsAt ?? 0;
          const before = this.catalog.list().length;
          await this.refresh();
          this.logger.write('info', 'catalog refreshed after the NATS reconnect', {
            tools: this.catalog.list().length,
            before,
          });
        }
      }
    })().catch(() => undefined);
  }

  private decode<T>(payload: unknown, schema: Parameters<typeof validatePayload>[0]): T {
    return validatePayload<T>(schema, payload, 'A catalog message');
  }

  private apply(change: () => void): void {
    try {
      change();
    } catch (error) {
      this.logger.write('warn', 'ignored a malformed catalog message', { error: (error as Error).message });
    }
  }
}
