import type { Metadata } from '@grpc/grpc-js';
import { Controller } from '@nestjs/common';
import { GrpcMethod } from '@nestjs/microservices';
import type { Principal } from '@talon/auth';
import type {
  ApiMethodName,
  ApiReplyOf,
  CatalogTool,
  Session,
  SessionDetail,
  ToolsCallReply,
} from '@talon/contracts';
import { parseJsonText } from '@talon/service-runtime';
import { ApiAuthenticator, bearerToken } from '../auth/api-authenticator.js';
import { ApiRouter } from './api-router.js';
import { grpcErrorOf } from './grpc-status.js';
import { grpcTraceCarrier } from './grpc-trace-metadata.js';

type Json = Record<string, unknown>;

/** Proto3 has no "absent": an empty string or zero means the field was left out. */
function present<T extends Json>(fields: T): Partial<T> {
  return Object.fromEntries(
    Object.entries(fields).filter(
      ([, value]) => value !== '' && value !== 0 && value !== undefined && value !== false,
    ),
  ) as Partial<T>;
}

function json(text: string | undefined): unknown {
  return text ? parseJsonText(text) : undefined;
}

function toolOf({ definition, instances }: CatalogTool): Json {
  return {
    name: definition.name,
    description: definition.description,
    parameters_json: JSON.stringify(definition.parameters),
    domain: definition.domain,
    effects: definition.effects,
    approval:
      typeof definition.approval === 'string' ? definition.approval : JSON.stringify(definition.approval),
    timeout_ms: definition.timeoutMs,
    source: definition.source,
    instances,
  };
}

function sessionOf(session: Session | SessionDetail): Json {
  return {
    id: session.id,
    title: session.title,
    autonomous: session.autonomous,
    created_at: session.createdAt,
    updated_at: session.updatedAt,
    message_count: session.messageCount ?? 0,
    messages: ((session as SessionDetail).messages ?? []).map((message) => ({
      seq: message.seq,
      turn_id: message.turnId,
      role: message.role,
      message_json: JSON.stringify(message.message),
      created_at: message.createdAt,
    })),
  };
}

function approvalOf(record: ApiReplyOf<'approvals.resolve'>): Json {
  return {
    id: record.id,
    session_id: record.sessionId,
    tool: record.tool,
    status: record.status,
    record_json: JSON.stringify(record),
  };
}

/**
 * The typed RPCs of talon.proto: each turns its proto message into the JSON method's payload, calls the
 * router (one authorisation and validation path for every surface) and turns the reply back. Failures are
 * gRPC statuses mapped from the Talon code.
 */
@Controller()
export class GrpcTypedApiController {
  constructor(
    private readonly router: ApiRouter,
    private readonly authenticator: ApiAuthenticator,
  ) {}

  private async run<M extends ApiMethodName, R>(
    method: M,
    metadata: Metadata | undefined,
    payload: () => Json,
    reply: (data: ApiReplyOf<M>) => R,
  ): Promise<R> {
    try {
      const header = metadata?.get('authorization')[0];
      const principal: Principal = await this.authenticator.authenticate(
        bearerToken(typeof header === 'string' ? header : header?.toString()),
      );
      const data = (await this.router.call(method, payload(), {
        surface: 'grpc',
        principal,
        traceCarrier: grpcTraceCarrier(metadata),
      })) as ApiReplyOf<M>;
      return reply(data);
    } catch (error) {
      throw grpcErrorOf(error);
    }
  }

  @GrpcMethod('Talon', 'ListTools')
  listTools(request: { domain: string; source: string }, metadata: Metadata): Promise<Json> {
    return this.run(
      'tools.list',
      metadata,
      () => present(request),
      (data) => ({
        version: data.version,
        tools: data.tools.map(toolOf),
      }),
    );
  }

  @GrpcMethod('Talon', 'CallTool')
  callTool(
    request: {
      tool: string;
      params_json: string;
      session_id: string;
      call_id: string;
      timeout_ms: number;
      policy: string;
    },
    metadata: Metadata,
  ): Promise<Json> {
    return this.run(
      'tools.call',
      metadata,
      () => ({
        ...present({
          tool: request.tool,
          sessionId: request.session_id,
          callId: request.call_id,
          timeoutMs: request.timeout_ms,
          policy: request.policy,
        }),
        ...(request.params_json ? { params: json(request.params_json) } : {}),
      }),
      (data: ToolsCallReply) => ({
        call_id: data.callId,
        tool: data.tool,
        output_json: JSON.stringify(data.output ?? null),
        text: data.text,
        truncated: data.truncated,
        redactions: data.redactions,
        duration_ms: data.durationMs,
        attempts: data.attempts,
        instance_id: data.instanceId ?? '',
      }),
    );
  }

  @GrpcMethod('Talon', 'CreateSession')
  createSession(request: { title: string; autonomous: boolean }, metadata: Metadata): Promise<Json> {
    return this.run('sessions.create', metadata, () => present(request), sessionOf);
  }

  @GrpcMethod('Talon', 'GetSession')
  getSession(request: { id: string; include_messages: boolean }, metadata: Metadata): Promise<Json> {
    return this.run(
      'sessions.get',
      metadata,
      () => present({ id: request.id, includeMessages: request.include_messages }),
      sessionOf,
    );
  }

  @GrpcMethod('Talon', 'ListSessions')
  listSessions(request: { limit: number }, metadata: Metadata): Promise<Json> {
    return this.run(
      'sessions.list',
      metadata,
      () => present(request),
      (data) => ({
        sessions: data.sessions.map(sessionOf),
      }),
    );
  }

  @GrpcMethod('Talon', 'ListApprovals')
  listApprovals(request: { session_id: string }, metadata: Metadata): Promise<Json> {
    return this.run(
      'approvals.list',
      metadata,
      () => present({ sessionId: request.session_id }),
      (data) => ({
        approvals: data.approvals.map((approval) => approvalOf(approval as ApiReplyOf<'approvals.resolve'>)),
      }),
    );
  }

  @GrpcMethod('Talon', 'ResolveApproval')
  resolveApproval(
    request: { id: string; decision: string; resolved_by: string },
    metadata: Metadata,
  ): Promise<Json> {
    return this.run(
      'approvals.resolve',
      metadata,
      () => present({ id: request.id, decision: request.decision, resolvedBy: request.resolved_by }),
      approvalOf,
    );
  }
}
