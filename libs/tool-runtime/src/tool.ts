import type {
  ToolApprovalAssessment,
  ApprovalRequirement,
  ToolCallRequest,
  ToolDefinition,
} from '@talon/contracts';

/** A credential granted to one call; the host injects it into allowlisted requests, the tool never reads it. */
export type CredentialGrant = NonNullable<ToolCallRequest['grants']>[number];

/** Structured log line sink handed to tools. Sensitive params never reach it. */
export type ToolLogger = (
  level: 'debug' | 'info' | 'warn' | 'error',
  message: string,
  fields?: Record<string, unknown>,
) => void;

/** What a tool receives besides its params. */
export interface ToolContext {
  /** Unique id of this call (also in the audit record and the NATS headers). */
  callId: string;
  /** Aborted when the call's timeout passes or the caller goes away. */
  signal: AbortSignal;
  /**
   * Runs `listener` once when the call is aborted (at once when it already was) and returns what removes
   * it: for code that only needs to be told, without the cost of an AbortSignal (see CallAbort).
   */
  onAbort?(listener: (reason: unknown) => void): () => void;
  /** Credentials granted to this call only. */
  grants: readonly CredentialGrant[];
  sessionId?: string;
  log: ToolLogger;
}

/**
 * A tool: data (its definition) plus `execute`. `approvalFor`, when present, lets the requirement
 * depend on the params (e.g. a read-only shell command needs none).
 */
export interface Tool<Params = Record<string, unknown>, Output = unknown> {
  readonly definition: ToolDefinition;
  execute(params: Params, context: ToolContext): Promise<Output>;
  approvalFor?(params: Params): ApprovalRequirement;
  /** `approvalFor` with its reasons and the programs the call runs, for the person asked to approve. */
  explainApproval?(params: Params): ToolApprovalAssessment;
}
