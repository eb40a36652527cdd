import { Inject, Injectable, type OnModuleInit } from '@nestjs/common';
import type { NatsConnection } from '@nats-io/transport-node';
import {
  SessionsCancelRequestSchema,
  SUBJECTS,
  type Envelope,
  type SessionsCancelReply,
  type SessionsCancelRequest,
} from '@talon/contracts';
import { encodeJson } from '@talon/service-runtime';
import { ApiRouter } from '../api/api-router.js';
import type { ApiCallContext, ApiMethod } from '../api/api-method.js';
import { SessionAccess } from '../auth/session-access.js';
import { NATS_CONNECTION } from '../config/orchestrator.constants.js';

/** How long `sessions.cancel` waits for the orchestrator running the turn to answer. */
const CANCEL_WAIT_MS = 1_000;

/**
 * `sessions.cancel`: stops the session's running turn wherever it runs. The cancel is a scatter to
 * every orchestrator; the one running the turn aborts it (its tool calls are cancelled on their
 * workers, the turn finishes as `aborted`) and answers. No answer means nothing was running.
 */
@Injectable()
export class SessionsCancelMethod
  implements ApiMethod<SessionsCancelRequest, SessionsCancelReply>, OnModuleInit
{
  readonly name = 'sessions.cancel';
  readonly description =
    "Stops the session's running turn (on whichever orchestrator runs it): in-flight tool calls are cancelled and the turn finishes as aborted. cancelled is false when no turn was running.";
  readonly scope = 'agent' as const;
  readonly request = SessionsCancelRequestSchema;

  constructor(
    private readonly router: ApiRouter,
    private readonly access: SessionAccess,
    @Inject(NATS_CONNECTION) private readonly connection: NatsConnection,
  ) {}

  onModuleInit(): void {
    this.router.register(this);
  }

  async handle(request: SessionsCancelRequest, context: ApiCallContext): Promise<SessionsCancelReply> {
    await this.access.assertCanUse(context.principal, request.id);
    try {
      const reply = await this.connection.request(
        SUBJECTS.turnCancel,
        encodeJson({ sessionId: request.id }),
        { timeout: CANCEL_WAIT_MS },
      );
      const envelope = reply.json<Envelope<SessionsCancelReply>>();
      if (envelope.ok) return envelope.data;
    } catch {
      // No orchestrator answered: none runs a turn of this session.
    }
    return { sessionId: request.id, cancelled: false };
  }
}
