import { randomUUID } from 'node:crypto';
import type { Metadata } from '@grpc/grpc-js';
import { Controller, Inject } from '@nestjs/common';
import { GrpcMethod } from '@nestjs/microservices';
import type { Observable } from 'rxjs';
import { catchError, from, map, of, switchMap, throwError } from 'rxjs';
import { ForbiddenError, type Principal } from '@talon/auth';
import { HEADERS, SessionIdSchema, scopeAllows, type SystemStatus } from '@talon/contracts';
import { validatePayload } from '@talon/service-runtime';
import { ApiAuthenticator, bearerToken } from '../auth/api-authenticator.js';
import { SessionAccess } from '../auth/session-access.js';
import { toWireError } from '@talon/errors';
import { parseJsonText, PayloadTooLargeError, type JsonLogger } from '@talon/service-runtime';
import { CHAT_SERVICE, LOGGER, ORCHESTRATOR_CONFIG } from '../config/orchestrator.constants.js';
import type { ChatService } from '../agent/chat-service.js';
import { chatEventStream } from '../agent/chat-stream.js';
import type { OrchestratorConfig } from '../config/orchestrator-config.js';
import { ApiRouter } from './api-router.js';
import { grpcErrorOf, isGrpcStatusError } from './grpc-status.js';
import { boundToToken } from './grpc-stream-token-binding.js';
import { grpcTraceCarrier } from './grpc-trace-metadata.js';

interface CallRequest {
  method: string;
  payload_json: string;
}

interface CallReply {
  ok: boolean;
  data_json?: string;
  error?: { code: string; message: string; details_json: string; retryable: boolean };
}

function parsePayload(json: string, maxBytes: number): unknown {
  const bytes = Buffer.byteLength(json ?? '');
  if (bytes > maxBytes) throw new PayloadTooLargeError(bytes, maxBytes);
  return parseJsonText(json ?? '');
}

/** The gRPC surface (proto in libs/contracts/proto). Errors travel in-band in the envelope, like NATS. */
@Controller()
export class GrpcApiController {
  constructor(
    private readonly router: ApiRouter,
    @Inject(ORCHESTRATOR_CONFIG) private readonly config: OrchestratorConfig,
    @Inject(CHAT_SERVICE) private readonly chat: ChatService,
    private readonly authenticator: ApiAuthenticator,
    private readonly access: SessionAccess,
    @Inject(LOGGER) private readonly logger: JsonLogger,
  ) {}

  /** The caller's token from `authorization: Bearer <token>` metadata. */
  private principal(metadata: Metadata | undefined): Promise<Principal> {
    const header = metadata?.get('authorization')[0];
    return this.authenticator.authenticate(
      bearerToken(typeof header === 'string' ? header : header?.toString()),
    );
  }

  /** chat.send as a server stream of events ending with `result` (or `error`). */
  @GrpcMethod('Talon', 'Chat')
  chatStream(
    request: { session_id: string; message: string },
    metadata: Metadata,
  ): Observable<{ type: string; event_json: string }> {
    // Authorised exactly like chat.send; a refusal ends the stream with one `error` event.
    const admitted = this.principal(metadata).then(async (principal) => {
      if (!scopeAllows(principal.scope, 'agent')) throw new ForbiddenError('Chat', 'agent', principal.scope);
      validatePayload(SessionIdSchema, request.session_id, 'The session id');
      await this.access.assertCanUse(principal, request.session_id);
    });
    return from(admitted).pipe(
      switchMap(() =>
        // A token that expires or is revoked mid-turn ends the stream with UNAUTHENTICATED and the turn.
        boundToToken(
          chatEventStream(this.chat, request.session_id, request.message, {
            surface: 'grpc',
            traceCarrier: grpcTraceCarrier(metadata),
          }),
          () => this.principal(metadata),
        ).pipe(map((event) => ({ type: event.type, event_json: JSON.stringify(event) }))),
      ),
      // A refusal at the door is one in-band `error` event; the token binding's status passes through.
      catchError((error: unknown) =>
        isGrpcStatusError(error)
          ? throwError(() => error)
          : of({ type: 'error', event_json: JSON.stringify({ type: 'error', error: toWireError(error) }) }),
      ),
    );
  }

  @GrpcMethod('Talon', 'Call')
  async call(request: CallRequest, metadata?: Metadata): Promise<CallReply> {
    const given = metadata?.get(HEADERS.callId)[0];
    const callId =
      typeof given === 'string' && given.length > 0 && given.length <= 128 ? given : randomUUID();
    try {
      const principal = await this.principal(metadata);
      const data = await this.router.call(
        request.method,
        parsePayload(request.payload_json, this.config.maxPayloadBytes),
        { surface: 'grpc', callId, principal, traceCarrier: grpcTraceCarrier(metadata) },
      );
      return { ok: true, data_json: JSON.stringify(data ?? null) };
    } catch (error) {
      const wire = toWireError(error);
      // Logged with the call id like the NATS surface does.
      if (wire.code === 'INTERNAL')
        this.logger.write('error', 'handler failed', {
          surface: 'grpc',
          callId,
          error: String((error as Error)?.stack ?? error),
        });
      return {
        ok: false,
        error: {
          code: wire.code,
          message: wire.message,
          details_json: wire.details === undefined ? '' : JSON.stringify(wire.details),
          retryable: wire.retryable ?? false,
        },
      };
    }
  }

  @GrpcMethod('Talon', 'GetSystemStatus')
  async getSystemStatus(request: { timeout_ms?: number }, metadata: Metadata): Promise<unknown> {
    const payload = request.timeout_ms ? { timeoutMs: request.timeout_ms } : {};
    let status: SystemStatus;
    try {
      const principal = await this.principal(metadata);
      status = (await this.router.call('system.status', payload, {
        surface: 'grpc',
        principal,
        traceCarrier: grpcTraceCarrier(metadata),
      })) as SystemStatus;
    } catch (error) {
      throw grpcErrorOf(error);
    }
    return {
      checked_at: status.checkedAt,
      waited_ms: status.waitedMs,
      services: status.services.map((service) => ({
        service: service.service,
        state: service.state,
        instances: service.instances.map((instance) => ({
          instance_id: instance.instanceId,
          version: instance.version,
          latency_ms: instance.latencyMs,
          uptime_ms: instance.uptimeMs,
          in_flight: instance.inFlight,
        })),
      })),
    };
  }
}
