import { Type, type Static } from '@sinclair/typebox';

/** Request of `audit.list`: newest first, one page at a time, optionally filtered. */
export const AuditListRequestSchema = Type.Object(
  {
    /** Only records with an id below this one (the previous page's `nextBefore`). */
    before: Type.Optional(Type.String({ pattern: '^[0-9]{1,19}$' })),
    limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 200 })),
    kind: Type.Optional(Type.String({ minLength: 1, maxLength: 100 })),
    tool: Type.Optional(Type.String({ minLength: 1, maxLength: 128 })),
    sessionId: Type.Optional(Type.String({ format: 'uuid' })),
    outcome: Type.Optional(Type.String({ minLength: 1, maxLength: 100 })),
  },
  { additionalProperties: false },
);
/** Request of `audit.list`. */
export type AuditListRequest = Static<typeof AuditListRequestSchema>;

/** One stored audit record as the API shows it (the id as a decimal string: it is a 64-bit integer). */
export const AuditRecordViewSchema = Type.Object({
  id: Type.String(),
  at: Type.String(),
  kind: Type.String(),
  actor: Type.String(),
  sessionId: Type.Union([Type.String(), Type.Null()]),
  callId: Type.Union([Type.String(), Type.Null()]),
  tool: Type.Union([Type.String(), Type.Null()]),
  argsHash: Type.Union([Type.String(), Type.Null()]),
  outcome: Type.String(),
  durationMs: Type.Union([Type.Integer(), Type.Null()]),
  data: Type.Record(Type.String(), Type.Unknown()),
  hash: Type.String(),
});
/** A stored audit record. */
export type AuditRecordView = Static<typeof AuditRecordViewSchema>;

/** Reply of `audit.list`: `nextBefore` is set when older records remain. */
export const AuditListReplySchema = Type.Object({
  records: Type.Array(AuditRecordViewSchema),
  nextBefore: Type.Optional(Type.String()),
});
/** Reply of `audit.list`. */
export type AuditListReply = Static<typeof AuditListReplySchema>;
