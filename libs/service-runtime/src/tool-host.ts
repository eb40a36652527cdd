import type { NatsConnection, Subscription } from '@nats-io/transport-node';
import {
  QUEUE_GROUPS,
  SUBJECTS,
  ToolCallCancelSchema,
  ToolCallCheckRequestSchema,
  ToolApprovalRequestSchema,
  ToolCallRequestSchema,
  type Envelope,
  type ToolApprovalAssessment,
  type ToolApprovalRequest,
  type ToolCallCancel,
  type ToolCallCheckReply,
  type ToolCallCheckRequest,
  type ServiceName,
  type ToolAnnouncement,
  type ToolCallRequest,
  type ToolCallResult,
  type ToolDomain,
  type ToolWithdrawal,
} from '@talon/contracts';
import { toWireError } from '@talon/errors';
import {
  CallAbort,
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
import { CallCancelledError } from './errors/call-cancelled-error.js';
import { validatePayload } from './payload-validator.js';
import { ToolResultStore } from './tool-result-store.js';

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
  /**
   * How long a call for a tool this instance does not serve waits for it to be registered before
   * UNKNOWN_TOOL. Default {@link MISSING_TOOL_WAIT_MS}; 0 answers at once.
   */
  missingToolWaitMs?: number;
}

/**
 * Catches an instance up on a tool it does not serve yet (another replica has just added it); resolves once
 * that is done or known to be impossible. See {@link ToolHost.addMissingToolResolver}.
 */
export type MissingToolResolver = (tool: string) => Promise<void>;

/**
 * How long a call for a tool this instance does not serve waits for it to be registered here, before
 * UNKNOWN_TOOL: with several replicas, another one may have announced a tool (an MCP tool list it shared, an
 * install) a moment before this one registers it.
 */
export const MISSING_TOOL_WAIT_MS = 500;

export const DEFAULT_TOOL_CONCURRENCY = 16;
export const DEFAULT_ANNOUNCE_TTL_MS = 3000;
/**
 * How long a call runs before its acknowledgement is sent. The failover probe only matters for calls
 * that last; a worker killed within this window leaves its calls to the caller's no-ack timeout.
 */
export const ACK_DELAY_MS = 20;
/** Room left in a reply for the envelope and the result's other fields when its output is measured. */
const REPLY_HEADROOM_BYTES = 4 * 1024;

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
  private checkSubscription?: Subscription;
  private cancelSubscription?: Subscription;
  /** Calls taken and not yet answered (queued or running), by call id: the failover probe reads it. */
  private readonly held = new Map<string, { abort: CallAbort; done: Promise<ToolCallResult> }>();
  private unlisten?: () => void;
  private readonly results: ToolResultStore;
  private readonly missingToolResolvers = new Set<MissingToolResolver>();

  constructor(private readonly options: ToolHostOptions) {
    this.results = new ToolResultStore(options.connection);
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
    // The failover probe: which of these calls do you still hold? Answered until the host stops.
    this.checkSubscription = connection.subscribe(SUBJECTS.toolCallCheck(this.options.instanceId), {
      callback: (error, message) => {
        if (error) return this.subscriptionFailed('failover probe', error);
        let reply: Envelope<ToolCallCheckReply>;
        try {
          reply = { ok: true, data: this.check(decodeJsonPayload(message.data, 1 << 20)) };
        } catch (error) {
          reply = { ok: false, error: toWireError(error) };
        }
        message.respond(encodeJson(reply));
      },
    });
    this.cancelSubscription = connection.subscribe(SUBJECTS.toolCancel(this.options.domain), {
      callback: (error, message) => {
        if (error) return this.subscriptionFailed('cancel', error);
        try {
          this.cancel(decodeJsonPayload(message.data, 1 << 16));
        } catch (error) {
          this.options.logger.write('warn', 'ignored a malformed cancel', { error: String(error) });
        }
      },
    });
    this.unlisten = this.subscribeToRegistry();
    this.announceOnReconnect();
    this.announce();
    this.heartbeat = setInterval(() => this.announce(), Math.max(100, Math.floor(this.ttlMs / 3)));
    this.heartbeat.unref();
  }

  /** Tells the catalogs this instance is leaving; called before draining. */
  stop(): void {
    clearInterval(this.heartbeat);
    this.heartbeat = undefined;
    this.unlisten?.();
    this.catalogSubscription?.unsubscribe();
    void this.approvalSubscription?.drain().catch(() => undefined);
    this.checkSubscription?.unsubscribe();
    this.cancelSubscription?.unsubscribe();
    const withdrawal: ToolWithdrawal = { instanceId: this.options.instanceId };
    this.options.connection.publish(SUBJECTS.toolWithdraw, encodeJson(withdrawal));
  }

  announcement(): ToolAnnouncement {
    return {
      instanceId: this.options.instanceId,
      service: this.options.service,
      domain: this.options.domain,
      tools: this.options.registry.list().map((tool) => ({
        ...tool.definition,
        approvalByCall: Boolean(tool.explainApproval ?? tool.approvalFor),
      })),
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
   * Adds a way to catch up on a tool this instance does not serve, asked before a call for it fails with
   * UNKNOWN_TOOL: with several replicas sharing installed tools, a call can reach this one right after another
   * replica installed the tool, before this one has loaded it. The call waits for it within its deadline,
   * held (the failover probe sees it), beside the {@link MISSING_TOOL_WAIT_MS} wait every call for a missing
   * tool gets. Returns the removal.
   */
  addMissingToolResolver(resolver: MissingToolResolver): () => void {
    this.missingToolResolvers.add(resolver);
    return () => this.missingToolResolvers.delete(resolver);
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

  /** The failover probe's answer: the asked calls this instance still holds. */
  check(payload: unknown): ToolCallCheckReply {
    const request = validatePayload<ToolCallCheckRequest>(ToolCallCheckRequestSchema, payload, 'The probe');
    return {
      instanceId: this.options.instanceId,
      held: request.callIds.filter((callId) => this.held.has(callId)),
    };
  }

  /** Aborts a held call whose caller gave up; a cancel for an unknown or finished call is ignored. */
  cancel(payload: unknown): boolean {
    const request = validatePayload<ToolCallCancel>(ToolCallCancelSchema, payload, 'The cancel');
    if (request.instanceId && request.instanceId !== this.options.instanceId) return false;
    const abort = this.held.get(request.callId)?.abort;
    if (!abort) return false;
    this.options.logger.write('info', 'cancelling a tool call', {
      callId: request.callId,
      reason: request.reason,
    });
    abort.abort(new CallCancelledError(request.callId, request.reason ?? 'cancelled'));
    return true;
  }

  /**
   * Runs one call from the orchestrator. Errors are typed and travel in the envelope. `acknowledge`
   * tells the caller which instance took the call (on the call's `ack` subject), once it is held.
   */
  async handleCall(
    payload: unknown,
    deadline?: number,
    acknowledge?: (subject: string, instanceId: string) => void,
  ): Promise<ToolCallResult> {
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
            () => this.execute(request, deadline, acknowledge),
          )
        : await this.execute(request, deadline, acknowledge);
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

  private async execute(
    request: ToolCallRequest,
    deadline: number | undefined,
    acknowledge?: (subject: string, instanceId: string) => void,
  ): Promise<ToolCallResult> {
    const remainingMs = deadline ? deadline - Date.now() : request.timeoutMs;
    if (remainingMs <= 0) throw new RequestTimeoutError(this.callSubject, request.timeoutMs);
    // Acknowledged only when the caller names where (the schema checked the subject's shape).
    const ackSubject = request.ack;
    const ack =
      acknowledge && ackSubject !== undefined
        ? () => acknowledge(ackSubject, this.options.instanceId)
        : undefined;
    const first = this.held.get(request.callId);
    if (first) {
      // The same request again (sent once more after a NATS outage): it shares the first one's run.
      ack?.();
      return first.done;
    }
    const abort = new CallAbort();
    const done = this.run(request, remainingMs, abort);
    this.held.set(request.callId, { abort, done });
    // A call that answers within ACK_DELAY_MS needs no acknowledgement: fast calls cost one message only.
    const ackTimer = ack ? setTimeout(ack, ACK_DELAY_MS) : undefined;
    try {
      return await done;
    } finally {
      clearTimeout(ackTimer);
      if (this.held.get(request.callId)?.abort === abort) this.held.delete(request.callId);
    }
  }

  private async run(
    request: ToolCallRequest,
    remainingMs: number,
    abort: CallAbort,
  ): Promise<ToolCallResult> {
    const started = performance.now();
    try {
      const waited =
        this.options.registry.get(request.tool) === undefined
          ? await this.catchUpOn(request.tool, remainingMs, abort)
          : 'done';
      const leftMs = remainingMs - (performance.now() - started);
      if (waited === 'deadline' || leftMs <= 0)
        throw new RequestTimeoutError(this.callSubject, request.timeoutMs);
      const executed = await this.limiter.run(
        () => {
          talonMetrics().toolQueueWait.observe((performance.now() - started) / 1000);
          return this.pipeline.runLocal({
            tool: request.tool,
            params: request.params,
            callId: request.callId,
            sessionId: request.sessionId,
            grants: request.grants ?? [],
            timeoutMs: Math.min(request.timeoutMs, leftMs),
            abort,
          });
        },
        {
          // A call that has to wait for a slot gives up at its deadline, or when it is cancelled.
          timeoutMs: leftMs,
          timeoutError: () => new RequestTimeoutError(this.callSubject, request.timeoutMs),
          abort,
        },
      );
      return await this.fitReply({
        output: executed.output,
        durationMs: performance.now() - started,
        instanceId: this.options.instanceId,
      });
    } catch (error) {
      if (abort.aborted) throw abort.reason;
      throw error;
    }
  }

  /**
   * Waits for `tool` to be registered here: done as soon as it is; otherwise once the wait for it and every
   * resolver have ended. Never longer than `waitMs` (what is left of the call: then `deadline`) or past an
   * abort.
   */
  private async catchUpOn(
    tool: string,
    waitMs: number,
    abort: CallAbort,
  ): Promise<'done' | 'deadline' | 'aborted'> {
    const graceMs = Math.min(waitMs, this.options.missingToolWaitMs ?? MISSING_TOOL_WAIT_MS);
    if (graceMs <= 0 && this.missingToolResolvers.size === 0) return 'done';
    const registered = this.options.registry.whenRegistered(tool, graceMs);
    const settled = Promise.allSettled([
      registered,
      ...[...this.missingToolResolvers].map((resolve) => resolve(tool)),
    ]);
    let timer: NodeJS.Timeout | undefined;
    let unlisten: (() => void) | undefined;
    try {
      return await Promise.race([
        registered.then(async (present) => {
          if (!present) await settled;
          return 'done' as const;
        }),
        new Promise<'deadline' | 'aborted'>((resolve) => {
          timer = setTimeout(() => resolve('deadline'), waitMs);
          timer.unref(); // a wait keeps no process alive that is otherwise done
          unlisten = abort.onAbort(() => resolve('aborted'));
        }),
      ]);
    } finally {
      clearTimeout(timer);
      unlisten?.();
    }
  }

  /**
   * A result whose output would not fit in one NATS message (the server's `max_payload`, read from the
   * connection) travels as a reference to the object store instead; the requester resolves it. When the
   * store cannot take it, the result goes as it is and the transport answers PAYLOAD_TOO_LARGE.
   */
  private async fitReply(result: ToolCallResult): Promise<ToolCallResult> {
    const maxPayload = this.options.connection.info?.max_payload;
    if (maxPayload === undefined) return result;
    let json: Uint8Array;
    try {
      json = encodeJson(result.output ?? null);
    } catch {
      return result;
    }
    if (json.byteLength + REPLY_HEADROOM_BYTES <= maxPayload) return result;
    try {
      return { ...result, output: null, outputRef: await this.results.put(json) };
    } catch (error) {
      this.options.logger.write('warn', 'a large tool result could not be stored', {
        bytes: json.byteLength,
        error: String(error),
      });
      return result;
    }
  }

  private subscriptionFailed(what: string, error: unknown): void {
    this.options.logger.write('error', `the ${what} subscription failed`, { error: String(error) });
  }

  /** Orchestrators scatter on their own reconnect; announcing on ours fills their catalogs sooner still. */
  private announceOnReconnect(): void {
    void (async () => {
      for await (const status of this.options.connection.status()) {
        if (this.heartbeat === undefined) return;
        if (status.type === 'reconnect') this.announce();
      }
    })().catch(() => undefined);
  }

  private subscribeToRegistry(): () => void {
    return this.options.registry.onChange(() => this.announce());
  }
}
