import { randomUUID } from 'node:crypto';
import {
  ERROR_CODES,
  SUBJECTS,
  type ToolApprovalAssessment,
  type ToolCallRequest,
  type ToolCallResult,
  type ToolMedia,
  type ToolsCallReply,
} from '@talon/contracts';
import { TalonError } from '@talon/errors';
import type { NatsRequester, ToolCallRequester } from '@talon/service-runtime';
import {
  CatalogWarmingError,
  hashParams,
  type UnknownToolError,
  type CatalogWarmUp,
  ToolPipeline,
  type CallRateLimiter,
  type CatalogEntry,
  type CredentialGrant,
  type OutputSafety,
  type PreparedCall,
  type ScopedRateLimit,
  type ToolCatalog,
  type ToolExecutor,
  type ToolLogger,
  awaitWarmTools,
} from '@talon/tool-runtime';
import { isMcpToolOutput, renderMcpOutputForModel } from '@talon/mcp';
import { ATTR, inSpan } from '@talon/telemetry';
import type { AuditLog } from '../audit/audit-log.js';
import { observeToolCall } from './tool-call-telemetry.js';

/** One call as the agent loop or an operator asks for it. */
export interface DispatchRequest {
  tool: string;
  params?: unknown;
  sessionId?: string;
  callId?: string;
  timeoutMs?: number;
  grants?: readonly CredentialGrant[];
  /** Who asked: `operator`, `model`, `session:<id>`… (for the audit). */
  actor?: string;
  signal?: AbortSignal;
}

/** Options of the dispatcher. */
export interface ToolDispatcherOptions {
  catalog: ToolCatalog;
  requester: NatsRequester;
  /**
   * Sends remote tool calls with acknowledgements and failover probes (a lost worker fails the call
   * with WORKER_LOST in about a second) and cancels them on the worker when the caller gives up.
   * Without it calls are plain requests that wait out the timeout (the previous mechanism; benchmarks).
   */
  toolCalls?: ToolCallRequester;
  /** While it is warming, a tool missing from the catalog is waited for, then UNAVAILABLE (retryable). */
  warmUp?: CatalogWarmUp;
  safety: OutputSafety;
  audit?: AuditLog;
  log?: ToolLogger;
  /** Attempts for an idempotent tool whose worker timed out or vanished. Default 2. */
  maxAttempts?: number;
  /** Counts rate-limited calls; default: a sliding window in this process only. */
  rateLimiter?: CallRateLimiter;
  /** Operator rate limits by tool, replacing the declared ones. */
  rateLimits?: ReadonlyMap<string, ScopedRateLimit>;
  /** Extra time the NATS request waits beyond the tool's timeout, so the worker's own TIMEOUT arrives first. */
  transportMarginMs?: number;
  /** Keeps a result's media by sha256 before the reply that names them leaves (the artifact store). */
  storeMedia?: (media: readonly ToolMedia[], sessionId: string | undefined) => Promise<void>;
}

/** How long the orchestrator waits for a tool domain's approval verdict before using the declared one. */
const APPROVAL_ASSESSMENT_TIMEOUT_MS = 2_000;

const RETRYABLE = new Set<string>([
  ERROR_CODES.TIMEOUT,
  ERROR_CODES.NO_RESPONDERS,
  ERROR_CODES.UNAVAILABLE,
  ERROR_CODES.WORKER_LOST,
]);

/**
 * The one entry for running a tool: lookup → validate/coerce → rate limit (here, once) → dispatch to the
 * tool's domain over NATS (or run a local control-plane tool) under its timeout → leak scan, sanitize,
 * truncate, wrap → one audit record. Only idempotent tools are retried.
 */
export class ToolDispatcher {
  readonly pipeline: ToolPipeline;
  private readonly maxAttempts: number;
  private readonly marginMs: number;

  constructor(private readonly options: ToolDispatcherOptions) {
    this.pipeline = new ToolPipeline(options.catalog, {
      safety: options.safety,
      log: options.log,
      ...(options.rateLimiter ? { rateLimiter: options.rateLimiter } : {}),
      ...(options.rateLimits ? { rateLimits: options.rateLimits } : {}),
      // MCP content (of MCP tools, mcp_call and mcp_resource_read) reaches the model typed: text once, images
      // and audio as media, the rest as short lines.
      renderOutput: (output) => (isMcpToolOutput(output) ? renderMcpOutputForModel(output) : undefined),
    });
    this.maxAttempts = options.maxAttempts ?? 2;
    this.marginMs = options.transportMarginMs ?? 250;
  }

  /**
   * Resolves the tool and validates (and coerces) the params without running anything: the step every
   * entry path takes before a policy decision or an approval. A refused call is audited with its code.
   */
  check(request: DispatchRequest): ReturnType<ToolPipeline['checkCall']> {
    const started = performance.now();
    try {
      return this.pipeline.checkCall(request);
    } catch (caught) {
      const error = this.warmingInstead(caught);
      const code = TalonError.isInstance(error) ? error.code : ERROR_CODES.INTERNAL;
      void this.record(request, undefined, code, performance.now() - started, {
        stage: 'check',
        message: (error as Error).message,
      });
      throw error;
    }
  }

  /**
   * The tool's own verdict on what approval this call needs and why: a local tool answers from its
   * `explainApproval`/`approvalFor`, a remote one is asked on its domain's approval subject (the shell in
   * the wasm-runner parses the command line there). Without an answer the declared requirement applies.
   */
  async assessApproval(
    tool: string,
    params: Record<string, unknown>,
  ): Promise<ToolApprovalAssessment | undefined> {
    const entry = this.options.catalog.get(tool);
    if (!entry) return undefined;
    if (entry.location === 'local') {
      const local = entry.tool;
      if (local?.explainApproval) return local.explainApproval(params);
      const approval = local?.approvalFor?.(params);
      return approval === undefined ? undefined : { approval, reasons: [] };
    }
    // The domain announced that the declared requirement is its whole answer: no round trip.
    if (entry.definition.approvalByCall === false) return undefined;
    try {
      return await this.options.requester.request<ToolApprovalAssessment>(
        SUBJECTS.toolApproval(entry.definition.domain),
        { tool: entry.definition.name, params },
        { timeoutMs: APPROVAL_ASSESSMENT_TIMEOUT_MS, headers: false },
      );
    } catch (error) {
      this.options.log?.('warn', 'the tool domain did not assess the approval; using the declared one', {
        tool,
        error: String(error),
      });
      return undefined;
    }
  }

  /** Runs one call (see the class comment), observed by {@link observeToolCall} (metrics, span). */
  call(request: DispatchRequest): Promise<ToolsCallReply> {
    return observeToolCall(this.options.catalog, request, () => this.dispatch(request));
  }

  private async dispatch(request: DispatchRequest): Promise<ToolsCallReply> {
    const callId = request.callId ?? randomUUID();
    const started = performance.now();
    let prepared: PreparedCall | undefined;
    let attempts = 0;
    let instanceId: string | undefined;
    try {
      // A listed tool needs no wait: the hot path allocates nothing here.
      const { warmUp, catalog } = this.options;
      if (warmUp && !catalog.get(request.tool))
        await awaitWarmTools(catalog, warmUp, [request.tool], request.signal);
      prepared = await this.pipeline.prepareCall({
        tool: request.tool,
        params: request.params,
        callId,
        sessionId: request.sessionId,
        grants: request.grants,
        timeoutMs: request.timeoutMs,
        signal: request.signal,
      });
      const entry = this.options.catalog.get(prepared.tool)!;
      const executor = this.executorFor(entry, (id) => (instanceId = id));
      for (;;) {
        attempts++;
        try {
          const executed = await this.pipeline.executeWithTimeout(prepared, executor);
          const result = this.pipeline.postProcessOutput(prepared, executed);
          const reply: ToolsCallReply = {
            callId,
            tool: result.tool,
            output: result.output,
            text: result.text,
            ...(result.media ? { media: result.media } : {}),
            truncated: result.truncated,
            redactions: result.leakFindings.map((finding) => finding.kind),
            durationMs: Math.round((performance.now() - started) * 1000) / 1000,
            attempts,
            ...(instanceId ? { instanceId } : {}),
          };
          if (result.media?.length && this.options.storeMedia)
            await this.options.storeMedia(result.media, request.sessionId);
          // The record is committed before the reply leaves: a crash cannot lose an answered call.
          await this.record(request, prepared, 'ok', reply.durationMs, {
            attempts,
            instanceId,
            truncated: result.truncated,
            redactions: reply.redactions,
          });
          return reply;
        } catch (error) {
          const code = TalonError.isInstance(error) ? error.code : ERROR_CODES.INTERNAL;
          if (!(
            prepared.definition.idempotent &&
            RETRYABLE.has(code) &&
            attempts < this.maxAttempts &&
            !request.signal?.aborted
          ))
            throw error;
          this.options.log?.('warn', 'retrying an idempotent tool call', {
            tool: prepared.tool,
            callId,
            code,
            attempts,
          });
        }
      }
    } catch (caught) {
      const error = this.warmingInstead(caught);
      const typed = prepared ? this.pipeline.redactError(prepared, error) : error;
      const code = TalonError.isInstance(typed) ? typed.code : ERROR_CODES.INTERNAL;
      await this.record(request, prepared, code, performance.now() - started, {
        attempts,
        instanceId,
        message: (typed as Error).message,
      });
      throw typed;
    }
  }

  private executorFor(entry: CatalogEntry, onInstance: (id: string) => void): ToolExecutor {
    if (entry.location === 'local') {
      const tool = entry.tool!;
      return (prepared, abort) =>
        tool.execute(prepared.params, {
          callId: prepared.callId,
          get signal() {
            return abort.signal;
          },
          grants: prepared.grants,
          sessionId: prepared.sessionId,
          log: this.options.log ?? (() => undefined),
        });
    }
    const subject = SUBJECTS.toolCall(entry.definition.domain);
    const toolCalls = this.options.toolCalls;
    return async (prepared, abort) => {
      const message: ToolCallRequest = {
        callId: prepared.callId,
        tool: prepared.tool,
        params: prepared.params,
        timeoutMs: prepared.timeoutMs,
        ...(prepared.grants.length ? { grants: [...prepared.grants] } : {}),
        ...(prepared.sessionId ? { sessionId: prepared.sessionId } : {}),
      };
      const result = toolCalls
        ? await toolCalls.call({
            domain: entry.definition.domain,
            request: message,
            timeoutMs: prepared.timeoutMs + this.marginMs,
            abort,
            idempotent: prepared.definition.idempotent,
          })
        : await this.options.requester.request<ToolCallResult>(subject, message, {
            timeoutMs: prepared.timeoutMs + this.marginMs,
            callId: prepared.callId,
            headers: false,
          });
      onInstance(result.instanceId);
      return result.output;
    };
  }

  /** UNKNOWN_TOOL while the catalog is still warming up is UNAVAILABLE: the tool may be on its way. */
  private warmingInstead(error: unknown): unknown {
    const warmUp = this.options.warmUp;
    if (
      TalonError.isInstance(error) &&
      error.code === ERROR_CODES.UNKNOWN_TOOL &&
      warmUp?.isWarming(Date.now())
    )
      return new CatalogWarmingError((error as UnknownToolError).toolName);
    return error;
  }

  private record(
    request: DispatchRequest,
    prepared: PreparedCall | undefined,
    outcome: string,
    durationMs: number,
    data: Record<string, unknown>,
  ): Promise<void> {
    if (!this.options.audit) return Promise.resolve();
    const audit = this.options.audit;
    return inSpan('talon.audit.write', { attributes: { [ATTR.auditKind]: 'tool.call' } }, () =>
      this.appendRecord(audit, request, prepared, outcome, durationMs, data),
    );
  }

  private appendRecord(
    audit: AuditLog,
    request: DispatchRequest,
    prepared: PreparedCall | undefined,
    outcome: string,
    durationMs: number,
    data: Record<string, unknown>,
  ): Promise<void> {
    const definition = prepared?.definition;
    const params = prepared?.params ?? (request.params as Record<string, unknown> | undefined);
    return audit.append({
      kind: 'tool.call',
      actor: request.actor ?? (request.sessionId ? `session:${request.sessionId}` : 'operator'),
      sessionId: request.sessionId ?? null,
      callId: prepared?.callId ?? request.callId ?? null,
      tool: definition?.name ?? request.tool,
      argsHash:
        params && typeof params === 'object' ? hashParams(params, definition?.sensitiveParams ?? []) : null,
      outcome,
      durationMs: Math.round(durationMs),
      // Members left undefined (no instance answered) are dropped where the log makes the data plain JSON.
      data,
    });
  }
}
