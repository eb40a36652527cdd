import { randomUUID } from 'node:crypto';
import type { Metadata } from '@grpc/grpc-js';
import { Controller, Inject } from '@nestjs/common';
import { GrpcMethod } from '@nestjs/microservices';
import type { Observable } from 'rxjs';
import { map } from 'rxjs';
import { HEADERS, type SystemStatus } from '@talon/contracts';
import { toWireError } from '@talon/errors';
import { parseJsonText, PayloadTooLargeError, type JsonLogger } from '@talon/service-runtime';
import { CHAT_SERVICE, LOGGER, ORCHESTRATOR_CONFIG } from '../config/orchestrator.constants.js';
import type { ChatService } from '../agent/chat-service.js';
import { chatEventStream } from '../agent/chat-stream.js';
import type { OrchestratorConfig } from '../config/orchestrator-config.js';
import { ApiRouter } from './api-router.js';

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
    @Inject(LOGGER) private readonly logger: JsonLogger,
  ) {}

  /** chat.send as a server stream of events ending with `result` (or `error`). */
  @GrpcMethod('Talon', 'Chat')
  chatStream(request: {
    session_id: string;
    message: string;
  }): Observable<{ type: string; event_json: string }> {
    return chatEventStream(this.chat, request.session_id, request.message).pipe(
      map((event) => ({ type: event.type, event_json: JSON.stringify(event) })),
    );
  }

  @GrpcMethod('Talon', 'Call')
  async call(request: CallRequest, metadata?: Metadata): Promise<CallReply> {
    const given = metadata?.get(HEADERS.callId)[0];
    const callId =
      typeof given === 'string' && given.length > 0 && given.length <= 128 ? given : randomUUID();
    try {
      const data = await this.router.call(
        request.method,
        parsePayload(request.payload_json, this.config.maxPayloadBytes),
        { surface: 'grpc', callId },
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
  async getSystemStatus(request: { timeout_ms?: number }): Promise<unknown> {
    const payload = request.timeout_ms ? { timeoutMs: request.timeout_ms } : {};
    const status = (await this.router.call('system.status', payload, { surface: 'grpc' })) as SystemStatus;
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
