import type { NatsConnection, Subscription } from '@nats-io/transport-node';
import { SUBJECTS, type Envelope, type HealthReply, type ServiceName } from '@talon/contracts';
import { encodeJson } from './json-codec.js';

/** Identity a service reports on its health subject. */
export interface HealthIdentity {
  service: ServiceName;
  instanceId: string;
  version: string;
}

/**
 * Answers the scatter health subject (no queue group: every instance replies) so `system.status`
 * can count instances and measure each one's latency.
 */
export class ServiceHealth {
  private subscription?: Subscription;
  private readonly startedAt = new Date();

  constructor(
    private readonly identity: HealthIdentity,
    private readonly inFlight: () => number,
    private readonly extras: () => Pick<HealthReply, 'sandbox'> = () => ({}),
  ) {}

  start(connection: NatsConnection): void {
    this.subscription = connection.subscribe(SUBJECTS.health(this.identity.service), {
      callback: (_error, message) => {
        const reply: Envelope<HealthReply> = { ok: true, data: this.snapshot() };
        message.respond(encodeJson(reply));
      },
    });
  }

  snapshot(): HealthReply {
    return {
      ...this.identity,
      startedAt: this.startedAt.toISOString(),
      uptimeMs: Date.now() - this.startedAt.getTime(),
      inFlight: this.inFlight(),
      ...this.extras(),
    };
  }

  stop(): void {
    this.subscription?.unsubscribe();
  }
}
