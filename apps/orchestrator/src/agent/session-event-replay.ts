import { Inject, Injectable, type OnModuleDestroy, type OnModuleInit } from '@nestjs/common';
import type { NatsConnection, Subscription } from '@nats-io/transport-node';
import { SessionEventLog } from '@talon/agent';
import type { ChatEvent } from '@talon/contracts';
import { NATS_CONNECTION } from '../config/orchestrator.constants.js';

/**
 * Keeps the recent events of every session, whichever replica's turn published them, so a stream cut
 * mid-turn resumes on any orchestrator with `Last-Event-ID`.
 */
@Injectable()
export class SessionEventReplay implements OnModuleInit, OnModuleDestroy {
  readonly log = new SessionEventLog<ChatEvent>();
  private subscription: Subscription | undefined;

  constructor(@Inject(NATS_CONNECTION) private readonly connection: NatsConnection) {}

  onModuleInit(): void {
    this.subscription = this.connection.subscribe('talon.events.v1.session.*', {
      callback: (_error, message) => {
        try {
          const event = message.json<ChatEvent>();
          if (typeof event.eventId === 'string') this.log.append(event);
        } catch {
          // Not an event of the contract: nothing to replay.
        }
      },
    });
  }

  onModuleDestroy(): void {
    this.subscription?.unsubscribe();
  }
}
