// Policy: grants, defaults, decisions, and the turn's tool ceiling.
export { POLICY_ACTIONS, NO_GRANTS, type PolicyAction, type SessionGrants } from './session-grants.js';
export {
  PolicyEngine,
  DEFAULT_EFFECT_ACTIONS,
  POLICY_SOURCES,
  type PolicyConfig,
  type PolicyDecision,
  type PolicyInput,
  type PolicySource,
} from './policy-engine.js';
export { ceilingFromAttenuation, type TurnCeiling } from './turn-ceiling.js';
export {
  skillPreApprovals,
  NO_PRE_APPROVALS,
  UNPREAPPROVABLE_EFFECTS,
  type PreApprovalDecision,
  type SkillPreApprovals,
} from './skill-pre-approvals.js';
export {
  EXECUTE_SKILL_TOOL,
  executeSkillToolDefinition,
  type ExecuteSkillArguments,
} from './execute-skill-tool.js';
export type { GrantStore } from './grant-store.js';
export { InMemoryGrantStore } from './in-memory-grant-store.js';
// Approvals.
export {
  APPROVAL_DECISIONS,
  APPROVAL_STATUSES,
  statusOfDecision,
  type ApprovalDecision,
  type PersonApprovalDecision,
  type ApprovalStatus,
  type ApprovalRecord,
  type ApprovalResolveOutcome,
  type ApprovalStore,
} from './approval-store.js';
export {
  ApprovalQueue,
  DEFAULT_APPROVAL_TIMEOUT_MS,
  DEFAULT_MAX_PENDING_APPROVALS,
  DEFAULT_APPROVAL_POLL_MS,
  type ApprovalQueueOptions,
  type ApprovalRequest,
} from './approval-queue.js';
export { InMemoryApprovalStore } from './in-memory-approval-store.js';
// The loop and what it talks to.
export { TurnRunner } from './agent-loop.js';
export {
  DEFAULT_MAX_ITERATIONS,
  DEFAULT_SKILL_TASK_MAX_DEPTH,
  DEFAULT_SKILL_TASK_OPTIONS,
  type SkillTaskOptions,
  type TurnRunnerDeps,
  type TurnRunnerOptions,
  type TurnInput,
  type ResumeInput,
  type DirectToolCallInput,
  type TurnResult,
} from './turn-options.js';
export type { TurnTimings } from './turn-clock.js';
export type { ToolSource } from './tool-source.js';
export type { ToolCaller, AgentToolCall } from './tool-caller.js';
export type { SkillAdvisor } from './skill-advisor.js';
export type { SessionStore, StoredMessage } from './session-store.js';
export { InMemorySessionStore } from './in-memory-session-store.js';
export { findInterruptedTurn, type InterruptedTurn } from './turn-history.js';
// One owner per turn across orchestrators: leases, fenced writes, tool call claims.
export { DEFAULT_TURN_LEASE_MS, MIN_LEASE_MS, leaseSchedule, type LeaseSchedule } from './lease-schedule.js';
export type { TurnFence, TurnLeaseAcquisition, TurnLeaseStore } from './turn-lease-store.js';
export { TurnLeaseKeeper, type HeldTurnLease, type TurnLeaseKeeperOptions } from './turn-lease-keeper.js';
export { InMemoryTurnLeaseStore } from './in-memory-turn-lease-store.js';
export type { ToolCallClaimResult, ToolCallClaimStore, ToolCallToClaim } from './tool-call-claim-store.js';
export { InMemoryToolCallClaimStore } from './in-memory-tool-call-claim-store.js';
export { interruptedOutcome } from './interrupted-call.js';
export type { ToolCallOutcome, SkillTaskContext } from './tool-call-executor.js';
export {
  TURN_FINISH_REASONS,
  type TurnFinishReason,
  type AgentEvent,
  type AgentEventListener,
  type TurnStartedEvent,
  type SkillsSelectedEvent,
  type SkillPreApprovalsEvent,
  type SubtaskOrigin,
  type TextDeltaEvent,
  type ToolCallStartedEvent,
  type ToolCallFinishedEvent,
  type ApprovalRequestedEvent,
  type ApprovalResolvedEvent,
  type MessageEvent,
  type UsageEvent,
  type ErrorEvent,
  type TurnFinishedEvent,
} from './agent-events.js';
export { streamAgentEvents } from './agent-event-stream.js';
export { buildSystemPrompt, SAFETY_PREAMBLE, type SystemPromptParts } from './system-prompt-builder.js';
// Slash commands (work with no model configured).
export {
  parseSlashCommand,
  isSlashCommand,
  slashCommandHelp,
  matchesSlashFilter,
  SLASH_COMMAND_USAGE,
  type SlashCommand,
} from './slash-commands.js';
// Secrets at rest.
export { SecretCipher, parseSecretsKey } from './secret-cipher.js';
export { loadOrCreateSecretsKeyFile, SECRETS_KEY_ENV } from './secrets-key-file.js';
// Errors.
export { AgentConfigError } from './errors/agent-config-error.js';
export { TooManyPendingApprovalsError } from './errors/too-many-pending-approvals-error.js';
export { ApprovalNotFoundError } from './errors/approval-not-found-error.js';
export { ApprovalAlreadyResolvedError } from './errors/approval-already-resolved-error.js';
export { SessionBusyError } from './errors/session-busy-error.js';
export { TurnLeaseLostError } from './errors/turn-lease-lost-error.js';
export { SkillTaskLimitError } from './errors/skill-task-limit-error.js';
export { SlashCommandError } from './errors/slash-command-error.js';
export { SecretsKeyInvalidError } from './errors/secrets-key-invalid-error.js';
export { SecretKeyMismatchError } from './errors/secret-key-mismatch-error.js';
export { SecretCorruptError } from './errors/secret-corrupt-error.js';
export { explainedReason } from './explained-reason.js';
export { RunningTurns, type RunningTurn } from './running-turns.js';
export { TurnCancelledError } from './errors/turn-cancelled-error.js';
// Resuming cut event streams (`Last-Event-ID`).
export { SessionEventLog, DEFAULT_EVENT_LOG_LIMITS, type LoggedEvent } from './session-event-log.js';
