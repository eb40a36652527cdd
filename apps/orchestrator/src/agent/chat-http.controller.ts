import { Controller, Get, Inject, Param, Post, Req, Res } from '@nestjs/common';
import type { Request, Response } from 'express';
import type { NatsConnection } from '@nats-io/transport-node';
import { ChatSendRequestSchema, SUBJECTS, type ChatEvent } from '@talon/contracts';
import { toWireError } from '@talon/errors';
import { validatePayload } from '@talon/service-runtime';
import { readJsonBody } from '../api/http-body-reader.js';
import { CHAT_SERVICE, NATS_CONNECTION, ORCHESTRATOR_CONFIG } from '../config/orchestrator.constants.js';
import type { OrchestratorConfig } from '../config/orchestrator-config.js';
import type { ChatService } from './chat-service.js';
import { chatEventStream } from './chat-stream.js';

function openEventStream(response: Response): (event: ChatEvent) => void {
  response
    .status(200)
    .set({ 'content-type': 'text/event-stream', 'cache-control': 'no-cache', connection: 'keep-alive' });
  response.flushHeaders();
  return (event) => response.write(`event: ${event.type}\ndata: ${JSON.stringify(event)}\n\n`);
}

/** Chat over HTTP: a message answered as server-sent events, and a live feed of a session's events. */
@Controller('v1/sessions')
export class ChatHttpController {
  constructor(
    @Inject(CHAT_SERVICE) private readonly chat: ChatService,
    @Inject(NATS_CONNECTION) private readonly connection: NatsConnection,
    @Inject(ORCHESTRATOR_CONFIG) private readonly config: OrchestratorConfig,
  ) {}

  /** `POST /v1/sessions/:id/messages {"message": "…"}` → SSE: the turn's events, then `result`. */
  @Post(':id/messages')
  async send(@Param('id') id: string, @Req() request: Request, @Res() response: Response): Promise<void> {
    let message: string;
    try {
      const body = (await readJsonBody(request, this.config.maxPayloadBytes)) as Record<string, unknown>;
      message = validatePayload<{ message: string }>(
        ChatSendRequestSchema,
        { ...body, sessionId: id },
        'The message',
      ).message;
    } catch (error) {
      const wire = toWireError(error);
      response
        .status(wire.code === 'PAYLOAD_TOO_LARGE' ? 413 : 400)
        .type('application/json')
        .send(JSON.stringify({ ok: false, error: wire }));
      return;
    }
    const write = openEventStream(response);
    chatEventStream(this.chat, id, message).subscribe({ next: write, complete: () => response.end() });
  }

  /** `GET /v1/sessions/:id/events` → SSE: every event of the session from now on (any surface's turns). */
  @Get(':id/events')
  events(@Param('id') id: string, @Req() request: Request, @Res() response: Response): void {
    const write = openEventStream(response);
    const subscription = this.connection.subscribe(SUBJECTS.sessionEvents(id), {
      callback: (_error, message) => write(message.json<ChatEvent>()),
    });
    request.on('close', () => subscription.unsubscribe());
  }
}
