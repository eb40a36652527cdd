import { randomUUID } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import { TalonError } from '@talon/errors';
import { NoLocalExecutorError } from './errors/no-local-executor-error.js';
import { OutputSafetyMissingError } from './errors/output-safety-missing-error.js';
import { ToolFailedError } from './errors/tool-failed-error.js';
import { UnknownToolError } from './errors/unknown-tool-error.js';
import type { OutputSafety } from './output-safety.js';
import { outputToText } from './output-text.js';
import { cutUtf8, DEFAULT_MAX_OUTPUT_BYTES, truncateText } from './output-truncation.js';
import { checkParamLimits, parseParamLimits, type ParamLimits } from './param-limits.js';
import { ParamValidator } from './param-validator.js';
import type { CallRateLimiter, RateLimitScope, ScopedRateLimit } from './call-rate-limiter.js';
import { SlidingWindowRateLimiter } from './rate-limiter.js';
import { runWithTimeout } from './run-with-timeout.js';
import type { Tool, ToolLogger } from './tool.js';
import type {
  ExecutedCall,
  OutputRenderer,
  PreparedCall,
  ToolCall,
  ToolExecutor,
  ToolRunResult,
} from './tool-call.js';
import { ToolRegistry, type ToolLookup } from './tool-registry.js';

/** Options of {@link ToolPipeline}. */
export interface ToolPipelineOptions {
  /** Shared schema compiler; defaults to the registry's when the lookup is a ToolRegistry. */
  validator?: ParamValidator;
  limits?: ParamLimits;
  /**
   * `null` turns rate limiting off. Default: a new sliding-window limiter (this process only); orchestrators
   * that share a database pass a {@link LeasedRateLimiter} so that the limit holds across all of them.
   */
  rateLimiter?: CallRateLimiter | null;
  /** Count a tool's declared limit per tool within each session (`session`, the default) or per tool overall (`tool`). */
  rateLimitScope?: RateLimitScope;
  /** Operator rules by tool name: they replace the tool's declared limit (and its scope). */
  rateLimits?: ReadonlyMap<string, ScopedRateLimit>;
  /** Leak scan, sanitize and wrap; required for `postProcessOutput` and `run`, unused by `runLocal`. */
  safety?: OutputSafety;
  /** Cap of the text returned to the model. Default {@link DEFAULT_MAX_OUTPUT_BYTES}. */
  maxOutputBytes?: number;
  /**
   * Most output text handed to the leak scanner and sanitizer (they run synchronously); beyond it the text is
   * cut first and the structured output is replaced by the scanned text. Default 16 × `maxOutputBytes`.
   */
  maxScanBytes?: number;
  /** Renders known output shapes (MCP content) for the model; default: compact JSON of every output. */
  renderOutput?: OutputRenderer;
  /**
   * Most image/audio bytes attached to one result ({@link DEFAULT_MAX_MEDIA_BYTES}); media past it stay named
   * in the text by their placeholder and are not attached.
   */
  maxMediaBytes?: number;
  log?: ToolLogger;
  newCallId?: () => string;
}

/** Default cap of image/audio bytes attached to one tool result. */
export const DEFAULT_MAX_MEDIA_BYTES = 1024 * 1024;

/** Options of {@link ToolPipeline.prepareCall}. */
export interface PrepareOptions {
  /** Count the call against the tool's rate limit. Default true; workers pass false (the orchestrator counted). */
  rateLimit?: boolean;
}

const silentLog: ToolLogger = () => undefined;

function parseOr(text: string, fallback: unknown): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return fallback;
  }
}

/**
 * The tool call pipeline as composable stages:
 * `prepareCall` (lookup → limits → coerce/validate → rate limit) → `executeWithTimeout` → `postProcessOutput`
 * (leak scan → sanitize → truncate → wrap). The orchestrator may prepare locally, dispatch remotely and
 * post-process; a worker uses `runLocal` (prepare without rate limit, execute, raw output).
 */
export class ToolPipeline {
  private readonly validator: ParamValidator;
  private readonly limits: Required<ParamLimits>;
  private readonly rateLimiter: CallRateLimiter | null;
  private readonly perSession: boolean;
  private readonly rateLimits: ReadonlyMap<string, ScopedRateLimit>;
  private readonly safety?: OutputSafety;
  private readonly maxOutputBytes: number;
  private readonly maxScanBytes: number;
  private readonly log: ToolLogger;
  private readonly newCallId: () => string;
  private readonly renderOutput?: OutputRenderer;
  private readonly maxMediaBytes: number;

  constructor(
    private readonly lookup: ToolLookup,
    options: ToolPipelineOptions = {},
  ) {
    this.validator =
      options.validator ?? (lookup instanceof ToolRegistry ? lookup.validator : new ParamValidator());
    this.limits = parseParamLimits(options.limits);
    this.rateLimiter =
      options.rateLimiter === undefined ? new SlidingWindowRateLimiter() : options.rateLimiter;
    this.perSession = (options.rateLimitScope ?? 'session') === 'session';
    this.rateLimits = options.rateLimits ?? new Map();
    this.safety = options.safety;
    this.maxOutputBytes = options.maxOutputBytes ?? DEFAULT_MAX_OUTPUT_BYTES;
    this.maxScanBytes = options.maxScanBytes ?? this.maxOutputBytes * 16;
    for (const [name, value] of [
      ['maxOutputBytes', this.maxOutputBytes],
      ['maxScanBytes', this.maxScanBytes],
    ] as const) {
      if (!Number.isInteger(value) || value < 1)
        throw new RangeError(`${name} must be a positive integer, got ${value}`);
    }
    if (this.maxScanBytes < this.maxOutputBytes)
      throw new RangeError('maxScanBytes must not be below maxOutputBytes');
    this.log = options.log ?? silentLog;
    this.newCallId = options.newCallId ?? randomUUID;
    if (options.renderOutput) this.renderOutput = options.renderOutput;
    this.maxMediaBytes = options.maxMediaBytes ?? DEFAULT_MAX_MEDIA_BYTES;
  }

  /**
   * Lookup → size/depth limits → coercion and validation, with no side effect but the coercion: what every
   * entry path runs before a policy decision or an approval is asked, so that a call that could never run
   * is refused with its typed error (UNKNOWN_TOOL, PARAMS_TOO_LARGE, SCHEMA_VIOLATION) and nobody is asked.
   */
  checkCall(call: { readonly tool: string; readonly params?: unknown }): {
    definition: PreparedCall['definition'];
    target: PreparedCall['target'];
    params: Record<string, unknown>;
  } {
    const target = this.lookup.get(call.tool);
    if (!target) throw new UnknownToolError(call.tool);
    const definition = target.definition;
    // Providers send "no arguments" as null or nothing; treat both as an empty object.
    const raw = call.params === undefined || call.params === null ? {} : call.params;
    checkParamLimits(definition.name, raw, this.limits);
    const params = this.validator.validate(definition.name, definition.parameters, raw);
    return { definition, target, params };
  }

  /**
   * Lookup → size/depth limits → coercion and validation → rate limit; throws typed errors. Asynchronous only
   * because a shared rate-limit count may need a round trip; a call with no limit never waits.
   */
  async prepareCall(call: ToolCall, options: PrepareOptions = {}): Promise<PreparedCall> {
    const { definition, target, params } = this.checkCall(call);
    const limit = this.rateLimitOf(definition);
    if (limit && this.rateLimiter && options.rateLimit !== false) {
      const key =
        limit.scope === 'session' ? `${definition.name}\u0000${call.sessionId ?? ''}` : definition.name;
      const taking = this.rateLimiter.take(definition.name, key, limit);
      if (taking) await taking;
    }
    return {
      callId: call.callId ?? this.newCallId(),
      tool: definition.name,
      definition,
      target,
      params,
      sessionId: call.sessionId,
      grants: call.grants ?? [],
      signal: call.signal,
      abort: call.abort,
      timeoutMs:
        call.timeoutMs !== undefined ? Math.min(call.timeoutMs, definition.timeoutMs) : definition.timeoutMs,
    };
  }

  /** The limit a call of this tool is counted against: the operator's rule, else the tool's declared one. */
  rateLimitOf(definition: PreparedCall['definition']): ScopedRateLimit | undefined {
    const rule = this.rateLimits.get(definition.name);
    if (rule) return rule;
    if (!definition.rateLimit) return undefined;
    return { ...definition.rateLimit, scope: this.perSession ? 'session' : 'tool' };
  }

  /**
   * Executes a prepared call under its timeout, by the local tool or by `executor`. A thrown TalonError
   * passes through; anything else becomes {@link ToolFailedError} with its message.
   */
  async executeWithTimeout(prepared: PreparedCall, executor?: ToolExecutor): Promise<ExecutedCall> {
    const run = executor ?? this.localExecutor(prepared);
    const started = performance.now();
    try {
      const output = await runWithTimeout(
        prepared.tool,
        prepared.timeoutMs,
        prepared.signal,
        (abort) => run(prepared, abort),
        prepared.abort,
      );
      return { output, durationMs: performance.now() - started };
    } catch (error) {
      const typed = TalonError.isInstance(error)
        ? error
        : new ToolFailedError(
            `Tool "${prepared.tool}" failed: ${error instanceof Error ? error.message : String(error)}`,
            { cause: error },
          );
      this.log('warn', 'tool call failed', {
        tool: prepared.tool,
        callId: prepared.callId,
        code: typed.code,
      });
      throw typed;
    }
  }

  /**
   * Leak scan → sanitize → truncate → wrap. Throws {@link OutputSafetyMissingError} without `safety`.
   * Text beyond `maxScanBytes` is dropped before scanning: it could never reach the model, and an unscanned
   * structured output must not leave either, so `output` then becomes the scanned text.
   */
  postProcessOutput(prepared: PreparedCall, executed: ExecutedCall): ToolRunResult {
    const safety = this.requireSafety();
    const rendered = this.renderOutput?.(executed.output, prepared.definition);
    const full = cutUtf8(rendered ? rendered.text : outputToText(executed.output), this.maxScanBytes);
    const scanned = safety.leakScanner.redact(full.text, this.knownSecrets(prepared));
    const sanitized = safety.sanitizer.sanitize(scanned.text);
    const cut = truncateText(
      sanitized.text,
      this.maxOutputBytes,
      full.truncated ? full.originalBytes : undefined,
    );
    // A rendered output counts whole against the cap: when its text (structured content included) was cut,
    // the structured output does not leave either.
    const replaced =
      scanned.findings.length > 0 || full.truncated || (rendered !== undefined && cut.truncated);
    const media = this.capMedia(rendered?.media);
    return {
      callId: prepared.callId,
      tool: prepared.tool,
      output: replaced ? scanned.text : executed.output,
      text: safety.wrapper.wrap(prepared.tool, prepared.callId, cut.text),
      ...(media.length > 0 ? { media } : {}),
      truncated: cut.truncated,
      leakFindings: scanned.findings,
      sanitizerFindings: sanitized.findings,
      durationMs: executed.durationMs,
    };
  }

  /** The media that fit under the media cap, in order. */
  private capMedia(media: ToolRunResult['media']): NonNullable<ToolRunResult['media']> {
    const kept: NonNullable<ToolRunResult['media']> = [];
    let used = 0;
    for (const item of media ?? []) {
      if (used + item.bytes > this.maxMediaBytes) continue;
      used += item.bytes;
      kept.push(item);
    }
    return kept;
  }

  /**
   * Redacts granted secrets and known key formats from a failed call's error message and details, in place
   * (an error travels to the model and the audit log just like output does).
   */
  redactError<E>(prepared: PreparedCall, error: E): E {
    if (!this.safety || !(error instanceof Error)) return error;
    const secrets = this.knownSecrets(prepared);
    const scanned = this.safety.leakScanner.redact(error.message, secrets);
    if (scanned.findings.length > 0) error.message = scanned.text;
    const withDetails = error as { details?: unknown };
    if (TalonError.isInstance(error) && withDetails.details !== undefined) {
      const details = this.safety.leakScanner.redact(outputToText(withDetails.details), secrets);
      if (details.findings.length > 0) withDetails.details = parseOr(details.text, { redacted: true });
    }
    return error;
  }

  /** The whole pipeline in this process (or through `executor`); failures are typed and leak-redacted. */
  async run(call: ToolCall, executor?: ToolExecutor): Promise<ToolRunResult> {
    this.requireSafety();
    const prepared = await this.prepareCall(call);
    let executed: ExecutedCall;
    try {
      executed = await this.executeWithTimeout(prepared, executor);
    } catch (error) {
      throw this.redactError(prepared, error);
    }
    return this.postProcessOutput(prepared, executed);
  }

  /** Worker mode: validate (no rate limit) and execute under the timeout, returning the raw output. */
  async runLocal(call: ToolCall): Promise<ExecutedCall> {
    return this.executeWithTimeout(await this.prepareCall(call, { rateLimit: false }));
  }

  private localExecutor(prepared: PreparedCall): ToolExecutor {
    const tool = prepared.target as Partial<Tool>;
    if (typeof tool.execute !== 'function') throw new NoLocalExecutorError(prepared.tool);
    const execute = tool.execute.bind(tool);
    const log = this.log;
    return (call, abort) =>
      execute(call.params, {
        callId: call.callId,
        get signal() {
          return abort.signal;
        },
        onAbort: (listener) => abort.onAbort(listener),
        grants: call.grants,
        sessionId: call.sessionId,
        log: (level, message, fields) =>
          log(level, message, { ...fields, tool: call.tool, callId: call.callId }),
      });
  }

  private knownSecrets(prepared: PreparedCall): string[] {
    return prepared.grants.map((grant) => grant.value);
  }

  private requireSafety(): OutputSafety {
    if (!this.safety) throw new OutputSafetyMissingError();
    return this.safety;
  }
}
