import { Type, type Static } from '@sinclair/typebox';

/** A session id: a UUID, so it can never widen a NATS subject (`*`, `>`, `.`). */
export const SessionIdSchema = Type.String({ format: 'uuid', maxLength: 36 });

/** A chat session as the API shows it. */
export const SessionSchema = Type.Object({
  id: Type.String({ format: 'uuid' }),
  title: Type.String(),
  autonomous: Type.Boolean({ description: 'no person attached: what would need asking is denied' }),
  createdAt: Type.String(),
  updatedAt: Type.String(),
  messageCount: Type.Optional(Type.Integer()),
});
/** A session. */
export type Session = Static<typeof SessionSchema>;

/** Request of `sessions.create`. */
export const SessionsCreateRequestSchema = Type.Object(
  { title: Type.Optional(Type.String({ maxLength: 200 })), autonomous: Type.Optional(Type.Boolean()) },
  { additionalProperties: false },
);
/** Request of `sessions.create`. */
export type SessionsCreateRequest = Static<typeof SessionsCreateRequestSchema>;

/** Request of `sessions.get`. */
export const SessionsGetRequestSchema = Type.Object(
  { id: Type.String({ format: 'uuid' }), includeMessages: Type.Optional(Type.Boolean()) },
  { additionalProperties: false },
);
/** Request of `sessions.get`. */
export type SessionsGetRequest = Static<typeof SessionsGetRequestSchema>;

/** One stored message: `content` is the provider-neutral message (role, text, tool calls or tool result). */
export const SessionMessageSchema = Type.Object({
  seq: Type.Integer(),
  turnId: Type.String(),
  role: Type.String(),
  message: Type.Unknown(),
  createdAt: Type.String(),
});
/** A stored message. */
export type SessionMessage = Static<typeof SessionMessageSchema>;

/** Reply of `sessions.get`. */
export const SessionDetailSchema = Type.Intersect([
  SessionSchema,
  Type.Object({ messages: Type.Optional(Type.Array(SessionMessageSchema)) }),
]);
/** Reply of `sessions.get`. */
export type SessionDetail = Static<typeof SessionDetailSchema>;

/** Request of `sessions.list`. */
export const SessionsListRequestSchema = Type.Object(
  { limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 500 })) },
  { additionalProperties: false },
);
/** Request of `sessions.list`. */
export type SessionsListRequest = Static<typeof SessionsListRequestSchema>;

/** Request of `chat.send`: one user message; the reply comes when the turn ends, events stream meanwhile. */
export const ChatSendRequestSchema = Type.Object(
  {
    sessionId: Type.String({ format: 'uuid' }),
    message: Type.String({ minLength: 1, maxLength: 100_000 }),
  },
  { additionalProperties: false },
);
/** Request of `chat.send`. */
export type ChatSendRequest = Static<typeof ChatSendRequestSchema>;

/**
 * One event of a turn, published on `talon.events.v1.session.<id>`, sent as SSE and as gRPC stream
 * messages: `turn_started`, `skills_selected`, `text_delta`, `tool_call_started`, `tool_call_finished`,
 * `approval_requested`, `approval_resolved`, `message`, `usage`, `error`, `turn_finished`, and for
 * slash commands `command_result`.
 */
export const ChatEventSchema = Type.Object(
  { type: Type.String(), sessionId: Type.String() },
  { additionalProperties: true },
);
/** A chat event. */
export type ChatEvent = Static<typeof ChatEventSchema> & Record<string, unknown>;

/** Reply of `chat.send`: how the turn ended. */
export const ChatSendReplySchema = Type.Object({
  sessionId: Type.String(),
  turnId: Type.String(),
  reason: Type.String(),
  content: Type.Optional(Type.String()),
  iterations: Type.Integer(),
  usage: Type.Object({ inputTokens: Type.Integer(), outputTokens: Type.Integer() }),
  timings: Type.Object({
    totalMs: Type.Number(),
    modelMs: Type.Number(),
    toolMs: Type.Number(),
    overheadMs: Type.Number(),
  }),
  error: Type.Optional(Type.Unknown()),
  command: Type.Optional(Type.Unknown({ description: 'the result of a slash command' })),
  /** A schedule caught before the model (reason `schedule_intercepted`): the parse and the routine made. */
  schedule: Type.Optional(Type.Unknown({ description: 'the intercepted schedule and its routine' })),
});
/** Reply of `chat.send`. */
export type ChatSendReply = Static<typeof ChatSendReplySchema>;

/** Request of `approvals.list`. */
export const ApprovalsListRequestSchema = Type.Object(
  { sessionId: Type.Optional(Type.String({ format: 'uuid' })) },
  { additionalProperties: false },
);
/** Request of `approvals.list`. */
export type ApprovalsListRequest = Static<typeof ApprovalsListRequestSchema>;

/** Request of `approvals.resolve`. */
export const ApprovalsResolveRequestSchema = Type.Object(
  {
    id: Type.String({ format: 'uuid' }),
    decision: Type.Union([Type.Literal('approve'), Type.Literal('deny'), Type.Literal('approve_always')]),
    resolvedBy: Type.Optional(Type.String({ maxLength: 200 })),
  },
  { additionalProperties: false },
);
/** Request of `approvals.resolve`. */
export type ApprovalsResolveRequest = Static<typeof ApprovalsResolveRequestSchema>;

/** Request of `secrets.set` (API and CLI only: no tool can set a secret). */
export const SecretsSetRequestSchema = Type.Object(
  {
    name: Type.String({ pattern: '^[A-Za-z][A-Za-z0-9_.-]{0,127}$' }),
    value: Type.String({ minLength: 1, maxLength: 16384 }),
    hostPatterns: Type.Optional(Type.Array(Type.String({ minLength: 1, maxLength: 253 }), { maxItems: 20 })),
    location: Type.Optional(
      Type.Object({
        kind: Type.Union([Type.Literal('bearer'), Type.Literal('header'), Type.Literal('query')]),
        name: Type.Optional(Type.String({ maxLength: 128 })),
      }),
    ),
  },
  { additionalProperties: false },
);
/** Request of `secrets.set`. */
export type SecretsSetRequest = Static<typeof SecretsSetRequestSchema>;

/** Request of `secrets.delete`. */
export const SecretsDeleteRequestSchema = Type.Object(
  { name: Type.String({ minLength: 1, maxLength: 128 }) },
  { additionalProperties: false },
);
/** Request of `secrets.delete`. */
export type SecretsDeleteRequest = Static<typeof SecretsDeleteRequestSchema>;

/** Request of `sessions.cancel`: stop the session's running turn. */
export const SessionsCancelRequestSchema = Type.Object(
  { id: Type.String({ format: 'uuid' }) },
  { additionalProperties: false },
);
/** Request of `sessions.cancel`. */
export type SessionsCancelRequest = Static<typeof SessionsCancelRequestSchema>;

/** Reply of `sessions.cancel`: whether a running turn was found and stopped (false: nothing was running). */
export const SessionsCancelReplySchema = Type.Object({
  sessionId: Type.String(),
  cancelled: Type.Boolean(),
  /** Instance id of the orchestrator that ran the turn, when one did. */
  instanceId: Type.Optional(Type.String()),
});
/** Reply of `sessions.cancel`. */
export type SessionsCancelReply = Static<typeof SessionsCancelReplySchema>;

/** Scatter on `talon.turns.v1.cancel`: every orchestrator stops the session's turn if it runs it. */
export const TurnCancelRequestSchema = Type.Object({ sessionId: SessionIdSchema });
/** A turn cancel between orchestrators. */
export type TurnCancelRequest = Static<typeof TurnCancelRequestSchema>;
