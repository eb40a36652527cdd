import type { LlmUsage } from '@talon/llm';
import type { ApprovalDecision } from './approval-store.js';
import type { PolicyAction } from './session-grants.js';

/** Why a turn ended. */
export const TURN_FINISH_REASONS = {
  finalAnswer: 'final_answer',
  iterationCap: 'iteration_cap',
  aborted: 'aborted',
  error: 'error',
} as const;
/** One of {@link TURN_FINISH_REASONS}. */
export type TurnFinishReason = (typeof TURN_FINISH_REASONS)[keyof typeof TURN_FINISH_REASONS];

/** Where a sub-task's events come from: the `execute_skill` call of a parent turn. */
export interface SubtaskOrigin {
  readonly parentTurnId: string;
  readonly callId: string;
  readonly skill: string;
  /** 1 for a sub-task of a chat turn, 2 for a sub-task of that sub-task, … */
  readonly depth: number;
}

interface TurnScoped {
  readonly sessionId: string;
  readonly turnId: string;
  /** Set on the events of an `execute_skill` sub-task, which stream on the parent session's stream. */
  readonly subtask?: SubtaskOrigin;
}

/** A turn began (or resumed after a restart). */
export interface TurnStartedEvent extends TurnScoped {
  readonly type: 'turn_started';
  readonly resumed: boolean;
}
/** The skills active for the turn. */
export interface SkillsSelectedEvent extends TurnScoped {
  readonly type: 'skills_selected';
  readonly skills: readonly { name: string; trust: string; score: number; reasons: readonly string[] }[];
  /** Tools removed by attenuation with the reason. */
  readonly removedTools: readonly { name: string; reason: string }[];
  /** Selected skills gated out on activation (a required declared tool is missing), with the reasons. */
  readonly gatedOut?: readonly { name: string; reasons: readonly string[] }[];
}
/** How the active skills' `allowed-tools` were judged for this turn (granted or refused, with the reason). */
export interface SkillPreApprovalsEvent extends TurnScoped {
  readonly type: 'skill_pre_approvals';
  readonly decisions: readonly { skill: string; tool: string; granted: boolean; reason: string }[];
}
/** A piece of the model's reply text. */
export interface TextDeltaEvent extends TurnScoped {
  readonly type: 'text_delta';
  readonly text: string;
}
/** A tool call cleared policy (and approval) and is running. */
export interface ToolCallStartedEvent extends TurnScoped {
  readonly type: 'tool_call_started';
  readonly callId: string;
  readonly tool: string;
  readonly params: Readonly<Record<string, unknown>>;
}
/** A tool call ended, ran or refused. `code` is the wire error code of a failure or refusal. */
export interface ToolCallFinishedEvent extends TurnScoped {
  readonly type: 'tool_call_finished';
  readonly callId: string;
  readonly tool: string;
  readonly ok: boolean;
  readonly code?: string;
  readonly message?: string;
  readonly durationMs: number;
  /** The policy verdict that let it run or refused it; `preApprovedBy` names the skill whose allowed-tools let it run. */
  readonly policy?: { action: PolicyAction; reason: string; source?: string; preApprovedBy?: string };
}
/** A call waits for a person's decision. */
export interface ApprovalRequestedEvent extends TurnScoped {
  readonly type: 'approval_requested';
  readonly approvalId: string;
  readonly callId: string;
  readonly tool: string;
  readonly params: Readonly<Record<string, unknown>>;
  readonly reason: string;
  readonly expiresAt: number;
}
/** A decision arrived (or the approval expired). */
export interface ApprovalResolvedEvent extends TurnScoped {
  readonly type: 'approval_resolved';
  readonly approvalId: string;
  readonly callId: string;
  readonly decision: ApprovalDecision;
  readonly approved: boolean;
  readonly resolvedBy?: string;
}
/** The final assistant message of the turn. */
export interface MessageEvent extends TurnScoped {
  readonly type: 'message';
  readonly content: string;
}
/** Tokens of one model call (`scope: call`) or of the whole turn (`scope: turn`). */
export interface UsageEvent extends TurnScoped {
  readonly type: 'usage';
  readonly scope: 'call' | 'turn';
  readonly usage: LlmUsage;
}
/** Something failed; `code` is a wire code (or `ABORTED`). A non-fatal error lets the turn go on. */
export interface ErrorEvent extends TurnScoped {
  readonly type: 'error';
  readonly code: string;
  readonly message: string;
  readonly fatal: boolean;
}
/** The last event of every turn. */
export interface TurnFinishedEvent extends TurnScoped {
  readonly type: 'turn_finished';
  readonly reason: TurnFinishReason;
  readonly iterations: number;
  /** A sentence for people, e.g. why the iteration cap stopped the turn. */
  readonly detail?: string;
}

/** Everything a turn streams, JSON-safe, in order. */
export type AgentEvent =
  | TurnStartedEvent
  | SkillsSelectedEvent
  | SkillPreApprovalsEvent
  | TextDeltaEvent
  | ToolCallStartedEvent
  | ToolCallFinishedEvent
  | ApprovalRequestedEvent
  | ApprovalResolvedEvent
  | MessageEvent
  | UsageEvent
  | ErrorEvent
  | TurnFinishedEvent;

/** Receives events as they happen; must not throw (errors in it are swallowed). */
export type AgentEventListener = (event: AgentEvent) => void;
