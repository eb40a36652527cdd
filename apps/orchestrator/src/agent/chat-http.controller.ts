import { Controller, Get, Inject, Param, Post, Req, Res } from '@nestjs/common';
import type { Request, Response } from 'express';
import type { NatsConnection } from '@nats-io/transport-node';
import {
  ForbiddenError,
  streamRefusalMessage,
  UnauthenticatedError,
  watchStreamAuthorization,
} from '@talon/auth';
import {
  ChatSendRequestSchema,
  HTTP_STATUS_BY_CODE,
  SessionIdSchema,
  SUBJECTS,
  scopeAllows,
  type ChatEvent,
} from '@talon/contracts';
import { toWireError } from '@talon/errors';
import { validatePayload } from '@talon/service-runtime';
import { recordCarrier } from '@talon/telemetry';
import { readJsonBody } from '../api/http-body-reader.js';
import { CHAT_SERVICE, NATS_CONNECTION, ORCHESTRATOR_CONFIG } from '../config/orchestrator.constants.js';
import type { OrchestratorConfig } from '../config/orchestrator-config.js';
import type { ChatService } from './chat-service.js';
import { chatEventStream } from './chat-stream.js';
import { principalOf } from '../api/http-front-door.js';
import { SessionAccess } from '../auth/session-access.js';
import { SessionEventReplay } from './session-event-replay.js';
import { ApiAuthenticator, bearerToken } from '../auth/api-authenticator.js';

/** A refusal before any event: the wire error as JSON with its HTTP status. */
function sendError(response: Response, error: unknown, fallbackStatus: number): void {
  const wire = toWireError(error);
  response
    .status(HTTP_STATUS_BY_CODE[wire.code] ?? fallbackStatus)
    .type('application/json')
    .send(JSON.stringify({ ok: false, error: wire }));
}

function openEventStream(response: Response): (event: ChatEvent) => void {
  response
    .status(200)
    .set({ 'content-type': 'text/event-stream', 'cache-control': 'no-cache', connection: 'keep-alive' });
  response.flushHeaders();
  return (event) =>
    response.write(
      `${typeof event.eventId === 'string' ? `id: ${event.eventId}\n` : ''}event: ${event.type}\ndata: ${JSON.stringify(event)}\n\n`,
    );
}

/** Chat over HTTP: a message answered as server-sent events, and a live feed of a session's events. */
@Controller('v1/sessions')
export class ChatHttpController {
  constructor(
    @Inject(CHAT_SERVICE) private readonly chat: ChatService,
    @Inject(NATS_CONNECTION) private readonly connection: NatsConnection,
    @Inject(ORCHESTRATOR_CONFIG) private readonly config: OrchestratorConfig,
    private readonly access: SessionAccess,
    private readonly replay: SessionEventReplay,
    private readonly authenticator: ApiAuthenticator,
  ) {}

  /**
   * Ends the stream with a fatal `error` event when its token expires or is revoked while it is open;
   * returns the function that stops watching (call it when the stream ends).
   */
  private bindToToken(request: Request, response: Response, sessionId: string, end: () => void): () => void {
    const token = bearerToken(request.headers.authorization);
    return watchStreamAuthorization({
      check: () => this.authenticator.authenticate(token),
      onRefused: (error) => {
        const event = {
          type: 'error',
          sessionId,
          error: { code: error.code, message: streamRefusalMessage(error) },
          fatal: true,
        };
        response.write(`event: error\ndata: ${JSON.stringify(event)}\n\n`);
        end();
        response.end();
      },
    });
  }

  /**
   * The id must be a session id (a UUID: never a subject wildcard such as `*` or `>`), the caller needs the
   * agent scope, and an agent token only reaches its own sessions.
   */
  private async admit(request: Request, id: string): Promise<void> {
    validatePayload(SessionIdSchema, id, 'The session id');
    const principal = principalOf(request);
    if (!principal) throw new UnauthenticatedError('The request carries no verified token.');
    if (!scopeAllows(principal.scope, 'agent'))
      throw new ForbiddenError('sessions (HTTP)', 'agent', principal.scope);
    await this.access.assertCanUse(principal, id);
  }

  /** `POST /v1/sessions/:id/messages {"message": "…"}` → SSE: the turn's events, then `result`. */
  @Post(':id/messages')
  async send(@Param('id') id: string, @Req() request: Request, @Res() response: Response): Promise<void> {
    let message: string;
    try {
      await this.admit(request, id);
      const body = (await readJsonBody(request, this.config.maxPayloadBytes)) as Record<string, unknown>;
      message = validatePayload<{ message: string }>(
        ChatSendRequestSchema,
        { ...body, sessionId: id },
        'The message',
      ).message;
    } catch (error) {
      sendError(response, error, 400);
      return;
    }
    const write = openEventStream(response);
    const subscription = chatEventStream(this.chat, id, message, {
      surface: 'http',
      traceCarrier: recordCarrier(request.headers),
    }).subscribe({
      next: write,
      complete: () => {
        unbind();
        response.end();
      },
    });
    const unbind = this.bindToToken(request, response, id, () => subscription.unsubscribe());
    request.on('close', unbind);
  }

  /**
   * `GET /v1/sessions/:id/events` → SSE: every event of the session from now on (any surface's turns);
   * with `Last-Event-ID`, the held events after that one first (a stream cut mid-turn resumes here).
   */
  @Get(':id/events')
  async events(@Param('id') id: string, @Req() request: Request, @Res() response: Response): Promise<void> {
    try {
      await this.admit(request, id);
    } catch (error) {
      sendError(response, error, 400);
      return;
    }
    const lastEventId = request.header('last-event-id');
    const replayed = new Set<string>();
    // The stream opens only once the NATS server holds the subscription: a client that reloads the
    // session when the stream opens then misses nothing between its load and the first live event.
    let early: ChatEvent[] | undefined = [];
    const subscription = this.connection.subscribe(SUBJECTS.sessionEvents(id), {
      callback: (_error, message) => {
        const event = message.json<ChatEvent>();
        if (typeof event.eventId === 'string' && replayed.has(event.eventId)) return;
        if (early) early.push(event);
        else open(event);
      },
    });
    try {
      await this.connection.flush();
    } catch (error) {
      subscription.unsubscribe();
      sendError(response, error, 503);
      return;
    }
    const open = openEventStream(response);
    if (lastEventId && !this.replay.log.knows(id, lastEventId))
      // Too old, or from before a restart: the client reloads the session instead of missing events.
      response.write(
        `event: stream_reset\ndata: ${JSON.stringify({ type: 'stream_reset', sessionId: id, reason: 'The events after Last-Event-ID are no longer held: reload the session (sessions.get).' })}\n\n`,
      );
    else if (lastEventId)
      for (const event of this.replay.log.after(id, lastEventId)) {
        replayed.add(String(event.eventId));
        open(event);
      }
    const held = early;
    early = undefined;
    for (const event of held)
      if (typeof event.eventId !== 'string' || !replayed.has(event.eventId)) open(event);
    const unbind = this.bindToToken(request, response, id, () => subscription.unsubscribe());
    request.on('close', () => {
      unbind();
      subscription.unsubscribe();
    });
  }
}
