import type { LlmProvider, LlmUsage } from '@talon/llm';
import type { AgentEventListener, TurnFinishReason } from './agent-events.js';
import type { ApprovalQueue } from './approval-queue.js';
import type { GrantStore } from './grant-store.js';
import type { PolicyEngine } from './policy-engine.js';
import type { SessionStore } from './session-store.js';
import type { SkillAdvisor } from './skill-advisor.js';
import type { ToolCaller } from './tool-caller.js';
import type { ToolSource } from './tool-source.js';
import type { TurnTimings } from './turn-clock.js';

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
}

/** Options of a {@link TurnRunner}; every field is optional. */
export interface TurnRunnerOptions {
  /** Model calls per turn. Default {@link DEFAULT_MAX_ITERATIONS}. */
  maxIterations?: number;
  /** The workspace prompt, or a function read at the start of each turn. */
  workspacePrompt?: string | (() => string);
  maxTokens?: number;
  temperature?: number;
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
  /** Model calls of this turn; default the runner's `maxIterations`. */
  maxIterations?: number;
  /** Only these tools are offered and may be dispatched (a job's policy); absent: the whole catalog. */
  toolAllowlist?: readonly string[];
  signal?: AbortSignal;
  onEvent?: AgentEventListener;
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
