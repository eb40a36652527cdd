import type { ActiveSkill } from '@talon/contracts';
import type { LlmMessage, LlmToolCall } from '@talon/llm';
import type { ToolCallScope } from './tool-call-executor.js';
import type { TurnClock } from './turn-clock.js';
import type { HeldTurnLease } from './turn-lease-keeper.js';

/** Everything one turn (or one `execute_skill` sub-task) carries while it runs. */
export interface TurnState {
  readonly sessionId: string;
  readonly turnId: string;
  /** The run's instructions for the system prompt (a hand's), if any. */
  readonly instructions?: string;
  readonly messages: LlmMessage[];
  readonly scope: ToolCallScope;
  /** The session's lease, when the turn holds one (its loss stops the turn without another write). */
  readonly lease?: HeldTurnLease;
  activeSkills: readonly ActiveSkill[];
  /** `skills_selected` is still to be sent (with the first attenuation's removals). */
  skillsToAnnounce: boolean;
  readonly clock: TurnClock;
  readonly usage: { inputTokens: number; outputTokens: number };
  iterations: number;
  /** Tool calls of the last assistant message still without a persisted result. */
  open: LlmToolCall[];
  /**
   * A write still in flight: the assistant message with tool calls (while the batch's policy is read) or
   * the batch's results (while the model answers). Settled before the next write and before the turn ends.
   */
  logging?: Promise<void>;
  /** Model calls allowed. */
  readonly maxIterations: number;
  /** The job's tool allowlist, if any. */
  readonly allowlist?: ReadonlySet<string>;
  /** Whether messages go to the session store (a sub-task's do not). */
  readonly persist: boolean;
  /** Tools pre-approved by active Trusted skills for the next batch (recomputed with the visible tools). */
  preApprovals: ReadonlyMap<string, string>;
  /** Selected skills gated out on activation, announced with the skills. */
  gatedOut: { name: string; reasons: string[] }[];
  /** A sub-task sees only its skill's declared tools, and never more than its caller saw. */
  readonly toolLimit?: { skill: string; declared: ReadonlySet<string>; caller: ReadonlySet<string> };
  /** Input + output tokens allowed (sub-tasks). */
  readonly tokenBudget?: number;
}
