import { Inject, Injectable, type OnApplicationBootstrap, type OnApplicationShutdown } from '@nestjs/common';
import type { NatsConnection, Subscription } from '@nats-io/transport-node';
import {
  SUBJECTS,
  TurnCancelRequestSchema,
  type Envelope,
  type SessionsCancelReply,
  type TurnCancelRequest,
} from '@talon/contracts';
import { encodeJson, validatePayload, type JsonLogger } from '@talon/service-runtime';
import {
  CHAT_SERVICE,
  LOGGER,
  NATS_CONNECTION,
  ORCHESTRATOR_CONFIG,
} from '../config/orchestrator.constants.js';
import type { OrchestratorConfig } from '../config/orchestrator-config.js';
import type { ChatService } from './chat-service.js';

/**
 * Hears `talon.turns.v1.cancel` (every orchestrator, no queue group): the one running the session's
 * turn stops it and answers; the others stay silent, so the asker takes the first answer as the owner's.
 */
@Injectable()
export class TurnCancelResponder implements OnApplicationBootstrap, OnApplicationShutdown {
  private subscription?: Subscription;

  constructor(
    @Inject(NATS_CONNECTION) private readonly connection: NatsConnection,
    @Inject(CHAT_SERVICE) private readonly chat: ChatService,
    @Inject(ORCHESTRATOR_CONFIG) private readonly config: OrchestratorConfig,
    @Inject(LOGGER) private readonly logger: JsonLogger,
  ) {}

  onApplicationBootstrap(): void {
    this.subscription = this.connection.subscribe(SUBJECTS.turnCancel, {
      callback: (_error, message) => {
        let request: TurnCancelRequest;
        try {
          request = validatePayload<TurnCancelRequest>(
            TurnCancelRequestSchema,
            message.json(),
            'A turn cancel',
          );
        } catch (error) {
          this.logger.write('warn', 'ignored a malformed turn cancel', { error: String(error) });
          return;
        }
        if (!this.chat.running.cancel(request.sessionId)) return;
        this.logger.write('info', 'turn cancelled', { sessionId: request.sessionId });
        const reply: Envelope<SessionsCancelReply> = {
          ok: true,
          data: { sessionId: request.sessionId, cancelled: true, instanceId: this.config.instanceId },
        };
        if (message.reply) message.respond(encodeJson(reply));
      },
    });
  }

  onApplicationShutdown(): void {
    this.subscription?.unsubscribe();
  }
}
