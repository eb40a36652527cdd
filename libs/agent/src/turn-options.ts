import type { LlmProvider, LlmUsage } from '@talon/llm';
import type { AgentEventListener, TurnFinishReason } from './agent-events.js';
import type { ApprovalQueue } from './approval-queue.js';
import type { GrantStore } from './grant-store.js';
import type { PolicyEngine } from './policy-engine.js';
import type { SessionStore } from './session-store.js';
import type { SkillAdvisor } from './skill-advisor.js';
import type { ToolCaller } from './tool-caller.js';
import type { ToolCallClaimStore } from './tool-call-claim-store.js';
import type { ToolSource } from './tool-source.js';
import type { TurnTimings } from './turn-clock.js';
import type { TurnLeaseKeeper } from './turn-lease-keeper.js';

/** Default cap on model calls per turn. */
export const DEFAULT_MAX_ITERATIONS = 8;

/** What a {@link TurnRunner} talks to; the integrator supplies the database- and NATS-backed ones. */
export interface TurnRunnerDeps {
  provider: LlmProvider;
  tools: ToolSource;
  caller: ToolCaller;
  sessions: SessionStore;
  approvals: ApprovalQueue;
  grants: GrantStore;
  /** Default: a {@link PolicyEngine} with the default effect actions. */
  policy?: PolicyEngine;
  /** Without one, no skills are selected and every tool is visible. */
  skills?: SkillAdvisor;
  /**
   * Makes each turn owned by one process at a time (several orchestrators share the sessions): a turn
   * holds its session's lease while it runs and writes only while it holds it. Without one, turns are
   * exclusive within this runner only.
   */
  leases?: TurnLeaseKeeper;
  /**
   * Records each tool call as started before it is dispatched, once: a call is never dispatched twice,
   * and a resumed turn reports a started call without a result as interrupted instead of re-running it.
   */
  claims?: ToolCallClaimStore;
}

/** Limits of an `execute_skill` sub-task; every field is optional. */
export interface SkillTaskOptions {
  /** Nesting depth (a sub-task of a sub-task is depth 2). Default {@link DEFAULT_SKILL_TASK_MAX_DEPTH}. */
  maxDepth?: number;
  /** Model calls per sub-task. Default 4. */
  maxIterations?: number;
  /** Wall time per sub-task, in ms. Default 120,000. */
  timeoutMs?: number;
  /** Input + output tokens per sub-task. Default 50,000. */
  maxTokens?: number;
}

/** Default nesting depth of `execute_skill`. */
export const DEFAULT_SKILL_TASK_MAX_DEPTH = 3;
/** Defaults of {@link SkillTaskOptions}. */
export const DEFAULT_SKILL_TASK_OPTIONS: Readonly<Required<SkillTaskOptions>> = Object.freeze({
  maxDepth: DEFAULT_SKILL_TASK_MAX_DEPTH,
  maxIterations: 4,
  timeoutMs: 120_000,
  maxTokens: 50_000,
});

/** Options of a {@link TurnRunner}; every field is optional. */
export interface TurnRunnerOptions {
  /** Model calls per turn. Default {@link DEFAULT_MAX_ITERATIONS}. */
  maxIterations?: number;
  /** The workspace prompt, or a function read at the start of each turn. */
  workspacePrompt?: string | (() => string);
  maxTokens?: number;
  temperature?: number;
  /** Limits of `execute_skill` sub-tasks. */
  skillTasks?: SkillTaskOptions;
}

/** One user message to answer. */
export interface TurnInput {
  sessionId: string;
  message: string;
  /** Default: a random UUID. */
  turnId?: string;
  /** No person attached (jobs, routines): calls that would ask are denied. */
  autonomous?: boolean;
  /** For the audit. Default `model`. */
  actor?: string;
  /** Skills to activate for this turn (`/skill <name> …`): mentioned to the selector as `$name`, not persisted. */
  mentionSkills?: readonly string[];
  /** Parameter values by skill name (a `/command key=value` message, a trigger payload), passed to selection. */
  skillParameters?: Readonly<Record<string, Record<string, unknown>>>;
  /** Model calls of this turn; default the runner's `maxIterations`. */
  maxIterations?: number;
  /** Only these tools are offered and may be dispatched (a job's policy); absent: the whole catalog. */
  toolAllowlist?: readonly string[];
  /** Instructions of this run placed in the system prompt (a hand's prompt and settings); not persisted. */
  instructions?: string;
  signal?: AbortSignal;
  onEvent?: AgentEventListener;
  /**
   * Whether the turn takes its session's lease (default true when the runner has {@link TurnRunnerDeps.leases}).
   * False when something else already owns the session, such as a job's lease.
   */
  leased?: boolean;
}

/** A tool call a person asked for directly (`/call`). */
export interface DirectToolCallInput {
  sessionId: string;
  tool: string;
  params: Readonly<Record<string, unknown>>;
  callId?: string;
  turnId?: string;
  /** Default `operator`. */
  actor?: string;
  autonomous?: boolean;
  signal?: AbortSignal;
  onEvent?: AgentEventListener;
}

/** Options of {@link TurnRunner.resumeTurn}. */
export type ResumeInput = Omit<TurnInput, 'sessionId' | 'message' | 'turnId' | 'mentionSkills'>;

/** How a turn ended. */
export interface TurnResult {
  readonly sessionId: string;
  readonly turnId: string;
  readonly reason: TurnFinishReason;
  /** The final assistant text (`final_answer`). */
  readonly content?: string;
  readonly iterations: number;
  readonly usage: LlmUsage;
  readonly timings: TurnTimings;
  readonly error?: { readonly code: string; readonly message: string };
}
