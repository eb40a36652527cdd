import type { NatsConnection, Subscription } from '@nats-io/transport-node';
import {
  QUEUE_GROUPS,
  SUBJECTS,
  ToolApprovalRequestSchema,
  ToolCallRequestSchema,
  type Envelope,
  type ToolApprovalAssessment,
  type ToolApprovalRequest,
  type ServiceName,
  type ToolAnnouncement,
  type ToolCallRequest,
  type ToolCallResult,
  type ToolDomain,
  type ToolWithdrawal,
} from '@talon/contracts';
import { toWireError } from '@talon/errors';
import {
  ConcurrencyLimiter,
  ToolPipeline,
  UnknownToolError,
  type Tool,
  type ToolRegistry,
} from '@talon/tool-runtime';
import {
  ATTR,
  extractTraceContext,
  inSpan,
  isTracingEnabled,
  SpanKind,
  talonMetrics,
} from '@talon/telemetry';
import { decodeJsonPayload, encodeJson } from './json-codec.js';
import { traceHeaders } from './nats-trace-headers.js';
import type { JsonLogger } from './json-logger.js';
import { RequestTimeoutError } from './errors/request-timeout-error.js';
import { validatePayload } from './payload-validator.js';

/** How a worker serves its tools. */
export interface ToolHostOptions {
  connection: NatsConnection;
  registry: ToolRegistry;
  service: ServiceName;
  domain: ToolDomain;
  instanceId: string;
  logger: JsonLogger;
  /** Calls run at once; more wait in order. Default 16 (env `TOOL_WORKER_CONCURRENCY`). */
  concurrency?: number;
  /** How long the catalog keeps an announcement. Default 3000 ms; re-announced every third of it. */
  announceTtlMs?: number;
}

export const DEFAULT_TOOL_CONCURRENCY = 16;
export const DEFAULT_ANNOUNCE_TTL_MS = 3000;

/**
 * The worker side of tool dispatch: announces the registry's tools (on start, on change, as a
 * heartbeat), answers catalog scatter requests, and runs calls validated again here, bounded by a
 * concurrency limit, skipping calls whose caller has already given up.
 */
export class ToolHost {
  private readonly pipeline: ToolPipeline;
  private readonly limiter: ConcurrencyLimiter;
  private readonly ttlMs: number;
  private heartbeat?: NodeJS.Timeout;
  private catalogSubscription?: Subscription;
  private approvalSubscription?: Subscription;
  private cancelSubscription?: Subscription;
  /** Calls running here by call id, so a cancel can stop one. */
  private readonly running = new Map<string, AbortController>();
  private unlisten?: () => void;

  constructor(private readonly options: ToolHostOptions) {
    this.pipeline = new ToolPipeline(options.registry, {
      rateLimiter: null,
      log: (level, message, fields) => options.logger.write(level, message, fields),
    });
    this.limiter = new ConcurrencyLimiter(options.concurrency ?? DEFAULT_TOOL_CONCURRENCY);
    this.ttlMs = options.announceTtlMs ?? DEFAULT_ANNOUNCE_TTL_MS;
  }

  /** The subject this host's calls arrive on (queue group of the service). */
  get callSubject(): string {
    return SUBJECTS.toolCall(this.options.domain);
  }

  start(): void {
    const { connection } = this.options;
    this.catalogSubscription = connection.subscribe(SUBJECTS.toolCatalogRequest, {
      callback: (_error, message) => {
        const answer = () =>
          message.respond(
            encodeJson({ ok: true, data: this.announcement() } satisfies Envelope<ToolAnnouncement>),
          );
        if (!isTracingEnabled()) return void answer();
        inSpan(
          `process ${SUBJECTS.toolCatalogRequest}`,
          {
            kind: SpanKind.SERVER,
            parent: extractTraceContext(message.headers),
            attributes: {
              [ATTR.messagingSystem]: 'nats',
              [ATTR.messagingOperation]: 'process',
              [ATTR.messagingDestination]: SUBJECTS.toolCatalogRequest,
              [ATTR.instanceId]: this.options.instanceId,
            },
          },
          answer,
        );
      },
    });
    this.approvalSubscription = connection.subscribe(SUBJECTS.toolApproval(this.options.domain), {
      queue: QUEUE_GROUPS[this.options.service],
      callback: (_error, message) => {
        let reply: Envelope<ToolApprovalAssessment>;
        try {
          reply = { ok: true, data: this.assessApproval(decodeJsonPayload(message.data, 1 << 20)) };
        } catch (error) {
          reply = { ok: false, error: toWireError(error) };
        }
        message.respond(encodeJson(reply));
      },
    });
    // Every instance hears a cancel; the one running the call stops it (the tool sees its signal abort).
    this.cancelSubscription = connection.subscribe(SUBJECTS.toolCancel(this.options.domain), {
      callback: (_error, message) => {
        try {
          const { callId } = message.json<{ callId?: unknown }>();
          if (typeof callId === 'string')
            this.running.get(callId)?.abort(new Error('cancelled by the caller'));
        } catch {
          // A malformed cancel is dropped.
        }
      },
    });
    this.unlisten = this.subscribeToRegistry();
    this.announce();
    this.heartbeat = setInterval(() => this.announce(), Math.max(100, Math.floor(this.ttlMs / 3)));
    this.heartbeat.unref();
  }

  /** Tells the catalogs this instance is leaving; called before draining. */
  stop(): void {
    clearInterval(this.heartbeat);
    this.unlisten?.();
    this.catalogSubscription?.unsubscribe();
    this.approvalSubscription?.unsubscribe();
    this.cancelSubscription?.unsubscribe();
    const withdrawal: ToolWithdrawal = { instanceId: this.options.instanceId };
    this.options.connection.publish(SUBJECTS.toolWithdraw, encodeJson(withdrawal));
  }

  announcement(): ToolAnnouncement {
    return {
      instanceId: this.options.instanceId,
      service: this.options.service,
      domain: this.options.domain,
      tools: this.options.registry.list().map((tool) => tool.definition),
      ttlMs: this.ttlMs,
    };
  }

  announce(): void {
    const headers = traceHeaders();
    this.options.connection.publish(
      SUBJECTS.toolAnnounce,
      encodeJson(this.announcement()),
      headers ? { headers } : undefined,
    );
  }

  /**
   * The tool's own approval verdict on one call (its `explainApproval`, else `approvalFor`, else the
   * declared requirement), so the orchestrator decides, and a person is asked, on what the call really does.
   */
  assessApproval(payload: unknown): ToolApprovalAssessment {
    const request = validatePayload<ToolApprovalRequest>(
      ToolApprovalRequestSchema,
      payload,
      'The approval request',
    );
    const tool = this.options.registry.get(request.tool) as Tool | undefined;
    if (!tool) throw new UnknownToolError(request.tool);
    if (tool.explainApproval) return tool.explainApproval(request.params);
    const approval = tool.approvalFor?.(request.params) ?? tool.definition.approval;
    return { approval, reasons: [] };
  }

  /** Runs one call from the orchestrator. Errors are typed and travel in the envelope. */
  async handleCall(payload: unknown, deadline?: number): Promise<ToolCallResult> {
    const request = validatePayload<ToolCallRequest>(ToolCallRequestSchema, payload, 'The tool call');
    const metrics = talonMetrics();
    const started = performance.now();
    try {
      const result = isTracingEnabled()
        ? await inSpan(
            `execute_tool ${request.tool}`,
            {
              attributes: {
                [ATTR.genAiOperation]: 'execute_tool',
                [ATTR.genAiToolName]: request.tool,
                [ATTR.genAiToolCallId]: request.callId,
                [ATTR.callId]: request.callId,
                [ATTR.toolDomain]: this.options.domain,
                [ATTR.instanceId]: this.options.instanceId,
                ...(request.sessionId ? { [ATTR.sessionId]: request.sessionId } : {}),
              },
            },
            () => this.execute(request, deadline),
          )
        : await this.execute(request, deadline);
      metrics.toolExecutions.inc({ tool: request.tool, code: 'ok' });
      return result;
    } catch (error) {
      const code = (error as { code?: unknown })?.code;
      metrics.toolExecutions.inc({ tool: request.tool, code: typeof code === 'string' ? code : 'INTERNAL' });
      throw error;
    } finally {
      metrics.toolExecutionDuration.observe({ tool: request.tool }, (performance.now() - started) / 1000);
    }
  }

  private async execute(request: ToolCallRequest, deadline: number | undefined): Promise<ToolCallResult> {
    const cancel = new AbortController();
    this.running.set(request.callId, cancel);
    try {
      return await this.runCall(request, cancel.signal, deadline);
    } finally {
      this.running.delete(request.callId);
    }
  }

  private async runCall(
    request: ToolCallRequest,
    cancelled: AbortSignal,
    deadline?: number,
  ): Promise<ToolCallResult> {
    const remainingMs = deadline ? deadline - Date.now() : request.timeoutMs;
    if (remainingMs <= 0) throw new RequestTimeoutError(this.callSubject, request.timeoutMs);
    // A timer only when the call has to wait for a slot: most calls start at once.
    const waitSignal =
      this.limiter.running >= this.limiter.limit ? AbortSignal.timeout(remainingMs) : undefined;
    const started = performance.now();
    try {
      const executed = await this.limiter.run(() => {
        talonMetrics().toolQueueWait.observe((performance.now() - started) / 1000);
        return this.pipeline.runLocal({
          tool: request.tool,
          params: request.params,
          callId: request.callId,
          sessionId: request.sessionId,
          grants: request.grants ?? [],
          timeoutMs: Math.min(request.timeoutMs, remainingMs),
          signal: cancelled,
        });
      }, waitSignal);
      return {
        output: executed.output,
        durationMs: performance.now() - started,
        instanceId: this.options.instanceId,
      };
    } catch (error) {
      if (waitSignal?.aborted && !(error as { code?: string })?.code)
        throw new RequestTimeoutError(this.callSubject, request.timeoutMs);
      throw error;
    }
  }

  private subscribeToRegistry(): () => void {
    return this.options.registry.onChange(() => this.announce());
  }
}
