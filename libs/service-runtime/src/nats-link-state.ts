import type { NatsConnection } from '@nats-io/transport-node';

/** After a reconnect, peers may still be reconnecting themselves: NO_RESPONDERS then is part of the outage. */
const SETTLING_MS = 2_000;

/**
 * What a caller needs to know about its connection's outages: whether one overlapped a request, and
 * when the link is back. One per connection (shared through {@link linkStateOf}).
 */
export class NatsLinkState {
  private disconnectedAt?: number;
  private lastDisconnectAt = 0;
  private lastReconnectAt = 0;
  private waiters: Array<() => void> = [];

  constructor(connection: NatsConnection) {
    void (async () => {
      for await (const status of connection.status()) {
        if (status.type === 'disconnect') {
          this.disconnectedAt = Date.now();
          this.lastDisconnectAt = this.disconnectedAt;
        } else if (status.type === 'reconnect') {
          this.disconnectedAt = undefined;
          this.lastReconnectAt = Date.now();
          this.waiters.splice(0).forEach((wake) => wake());
        }
      }
    })().catch(() => undefined);
  }

  /** True when an outage (or its settling time) overlapped the time since `since`. */
  overlapped(since: number, now = Date.now()): boolean {
    return (
      this.disconnectedAt !== undefined ||
      this.lastDisconnectAt >= since ||
      now - this.lastReconnectAt < SETTLING_MS
    );
  }

  /** Resolves when connected (at once if so), or after `maxMs`. */
  whenConnected(maxMs: number): Promise<void> {
    if (this.disconnectedAt === undefined) return Promise.resolve();
    return new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, Math.max(0, maxMs));
      this.waiters.push(() => {
        clearTimeout(timer);
        resolve();
      });
    });
  }
}

const states = new WeakMap<NatsConnection, NatsLinkState>();

/** The link state of a connection, created on first use. */
export function linkStateOf(connection: NatsConnection): NatsLinkState {
  let state = states.get(connection);
  if (!state) {
    state = new NatsLinkState(connection);
    states.set(connection, state);
  }
  return state;
}
