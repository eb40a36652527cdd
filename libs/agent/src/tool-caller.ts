import type { ToolApprovalAssessment, ToolsCallReply } from '@talon/contracts';

/** One tool call the loop has cleared through policy and approvals. */
export interface AgentToolCall {
  /** The tool's LLM-facing name, as listed by the {@link ToolSource}. */
  readonly tool: string;
  readonly params: Readonly<Record<string, unknown>>;
  readonly sessionId: string;
  /** The model's call id (or the slash command's). */
  readonly callId: string;
  /** Who asked: `model`, `operator`, `job:<id>`…, for the audit. */
  readonly actor: string;
  readonly signal?: AbortSignal;
}

/**
 * Runs a tool. The integrator adapts the orchestrator's `ToolDispatcher.call` (validation, grants,
 * timeout, output safety, audit) to it. Failures are thrown as `TalonError`s; the loop turns them
 * into error tool results the model sees, with their code.
 */
export interface ToolCaller {
  call(call: AgentToolCall): Promise<ToolsCallReply>;
  /**
   * Resolves the tool and validates (and coerces, in place) its params without running it; throws the
   * `TalonError` the call would fail with (UNKNOWN_TOOL, PARAMS_TOO_LARGE, SCHEMA_VIOLATION). The loop runs
   * it before any policy decision, so a call that could never run never reaches a person for approval.
   */
  check?(call: Pick<AgentToolCall, 'tool' | 'params'>): void;
  /**
   * The tool's own verdict on this call's approval (evaluated by the domain that runs it), with the reasons
   * and programs a person should see; `undefined` leaves the declared requirement.
   */
  assessApproval?(call: Pick<AgentToolCall, 'tool' | 'params'>): Promise<ToolApprovalAssessment | undefined>;
}
