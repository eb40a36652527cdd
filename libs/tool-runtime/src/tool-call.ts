import type { ToolDefinition, ToolMedia } from '@talon/contracts';
import type { CallAbort } from './call-abort.js';
import type { LeakFinding } from './output-safety.js';
import type { CredentialGrant } from './tool.js';

/** One tool call as the pipeline receives it. */
export interface ToolCall {
  tool: string;
  /** Raw params (usually parsed JSON). Coercion and defaults are applied to this object in place. */
  params: unknown;
  callId?: string;
  sessionId?: string;
  grants?: readonly CredentialGrant[];
  /** Aborts the call when the caller goes away. */
  signal?: AbortSignal;
  /** The call's own abort, when the caller holds one (a worker's cancel aborts it); else one is made per run. */
  abort?: CallAbort;
  /** A tighter deadline than the tool's own `timeoutMs` (e.g. what is left of the turn). */
  timeoutMs?: number;
}

/** A call that passed lookup, limits, validation and the rate limit: ready to execute here or remotely. */
export interface PreparedCall {
  readonly callId: string;
  readonly tool: string;
  readonly definition: ToolDefinition;
  /** The looked-up entry: a {@link Tool} when it runs in this process, otherwise just its definition. */
  readonly target: { readonly definition: ToolDefinition };
  readonly params: Record<string, unknown>;
  readonly sessionId?: string;
  readonly grants: readonly CredentialGrant[];
  readonly signal?: AbortSignal;
  readonly abort?: CallAbort;
  /** The effective timeout: the tool's, or the call's when that is shorter. */
  readonly timeoutMs: number;
}

/** The raw outcome of executing a prepared call. */
export interface ExecutedCall {
  output: unknown;
  durationMs: number;
}

/** What the orchestrator hands back after the full pipeline. */
export interface ToolRunResult {
  callId: string;
  tool: string;
  /** Structured output; replaced by the redacted text when the leak scan found a secret in it. */
  output: unknown;
  /** The wrapped, sanitized, possibly truncated text for the model. */
  text: string;
  /** Images and audio of the output (see {@link OutputRenderer}), within the media cap. */
  media?: ToolMedia[];
  truncated: boolean;
  leakFindings: LeakFinding[];
  sanitizerFindings: string[];
  durationMs: number;
}

/**
 * Runs a prepared call somewhere (e.g. over NATS on the tool's domain) and resolves with its output; `abort`
 * fires on timeout or cancel (read its `signal` only where an AbortSignal is needed: it is made on demand).
 */
export type ToolExecutor = (prepared: PreparedCall, abort: CallAbort) => Promise<unknown>;

/** A tool output rendered for the model: its text, and images or audio kept typed beside it. */
export interface RenderedOutput {
  text: string;
  media?: ToolMedia[];
}

/**
 * Renders outputs of a known shape (e.g. MCP content) for the model instead of the default compact JSON;
 * returns undefined for anything it does not recognise.
 */
export type OutputRenderer = (output: unknown, definition: ToolDefinition) => RenderedOutput | undefined;
