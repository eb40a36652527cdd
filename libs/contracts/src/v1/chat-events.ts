import { Type, type Static } from '@sinclair/typebox';
import { ChatSendReplySchema } from './sessions.js';

const turnScoped = {
  sessionId: Type.String(),
  turnId: Type.String(),
  /** Set by the server on every published event: resume a cut stream after it (SSE `id`, `Last-Event-ID`). */
  eventId: Type.Optional(Type.String()),
};

/** `turn_started`: a turn began (or resumed after a takeover). */
export const TurnStartedEventSchema = Type.Object({
  type: Type.Literal('turn_started'),
  ...turnScoped,
  resumed: Type.Boolean(),
});
/** `text_delta`: a piece of the model's answer. */
export const TextDeltaEventSchema = Type.Object({
  type: Type.Literal('text_delta'),
  ...turnScoped,
  text: Type.String(),
});
/** `tool_call_started`: the model called a tool. */
export const ToolCallStartedEventSchema = Type.Object({
  type: Type.Literal('tool_call_started'),
  ...turnScoped,
  callId: Type.String(),
  tool: Type.String(),
  params: Type.Record(Type.String(), Type.Unknown()),
});
/** `tool_call_finished`: a tool call ended (`ok`, or `code` and `message`). */
export const ToolCallFinishedEventSchema = Type.Object({
  type: Type.Literal('tool_call_finished'),
  ...turnScoped,
  callId: Type.String(),
  tool: Type.String(),
  ok: Type.Boolean(),
  code: Type.Optional(Type.String()),
  message: Type.Optional(Type.String()),
  durationMs: Type.Number(),
});
/** `approval_requested`: a tool call waits for a person; answer with `approvals.resolve`. */
export const ApprovalRequestedEventSchema = Type.Object({
  type: Type.Literal('approval_requested'),
  ...turnScoped,
  approvalId: Type.String(),
  callId: Type.String(),
  tool: Type.String(),
  params: Type.Record(Type.String(), Type.Unknown()),
  reason: Type.String(),
  expiresAt: Type.Number(),
});
/** `approval_resolved`: the approval was answered (or timed out as denied). */
export const ApprovalResolvedEventSchema = Type.Object({
  type: Type.Literal('approval_resolved'),
  ...turnScoped,
  approvalId: Type.String(),
  callId: Type.String(),
  decision: Type.String(),
  approved: Type.Boolean(),
  resolvedBy: Type.Optional(Type.String()),
});
/** `message`: a whole assistant message. */
export const MessageEventSchema = Type.Object({
  type: Type.Literal('message'),
  ...turnScoped,
  content: Type.String(),
});
/** `error`: something went wrong; `fatal` ends the turn. */
export const ErrorEventSchema = Type.Object({
  type: Type.Literal('error'),
  sessionId: Type.String(),
  turnId: Type.Optional(Type.String()),
  eventId: Type.Optional(Type.String()),
  code: Type.Optional(Type.String()),
  message: Type.Optional(Type.String()),
  error: Type.Optional(Type.Object({ code: Type.String(), message: Type.String() })),
  fatal: Type.Optional(Type.Boolean()),
});
/** `turn_finished`: how the turn ended (final_answer, iteration_cap, aborted, error). */
export const TurnFinishedEventSchema = Type.Object({
  type: Type.Literal('turn_finished'),
  ...turnScoped,
  reason: Type.String(),
  iterations: Type.Integer(),
});
/** `skills_selected`: the skills active for the turn, with their trust. */
export const SkillsSelectedEventSchema = Type.Object({
  type: Type.Literal('skills_selected'),
  ...turnScoped,
  skills: Type.Array(Type.Object({ name: Type.String(), trust: Type.String() })),
});
/** `command_result`: what a slash command answered (no model involved). */
export const CommandResultEventSchema = Type.Object({
  type: Type.Literal('command_result'),
  sessionId: Type.String(),
  eventId: Type.Optional(Type.String()),
  command: Type.String(),
  result: Type.Unknown(),
});
/** `result`: the last event of a `chat.send` stream, the same document as the `chat.send` reply. */
export const ResultEventSchema = Type.Composite([
  Type.Object({ type: Type.Literal('result') }),
  ChatSendReplySchema,
]);

/**
 * The events a chat stream carries that clients act on, by `type`. Servers may send other types
 * (`usage`, `skill_pre_approvals`, …); a client built against this list skips the types it does not know.
 */
export const TYPED_CHAT_EVENT_SCHEMAS = {
  turn_started: TurnStartedEventSchema,
  text_delta: TextDeltaEventSchema,
  tool_call_started: ToolCallStartedEventSchema,
  tool_call_finished: ToolCallFinishedEventSchema,
  approval_requested: ApprovalRequestedEventSchema,
  approval_resolved: ApprovalResolvedEventSchema,
  message: MessageEventSchema,
  error: ErrorEventSchema,
  turn_finished: TurnFinishedEventSchema,
  skills_selected: SkillsSelectedEventSchema,
  command_result: CommandResultEventSchema,
  result: ResultEventSchema,
} as const;

/** One typed chat event (discriminated by `type`). */
export type TypedChatEvent = {
  [K in keyof typeof TYPED_CHAT_EVENT_SCHEMAS]: Static<(typeof TYPED_CHAT_EVENT_SCHEMAS)[K]>;
}[keyof typeof TYPED_CHAT_EVENT_SCHEMAS];
