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

/** What a call's record says beside who, when and which session: the same in the outbox and the table. */
const AUDIT_RECORD_FACTS = {
  callId: Type.Union([Type.String(), Type.Null()]),
  tool: Type.Union([Type.String(), Type.Null()]),
  argsHash: Type.Union([Type.String(), Type.Null()]),
  outcome: Type.String(),
  durationMs: Type.Union([Type.Integer(), Type.Null()]),
  data: Type.Record(Type.String(), Type.Unknown()),
};

/** One stored audit record as the API shows it (the id as a decimal string: it is a 64-bit integer). */
export const AuditRecordViewSchema = Type.Object({
  id: Type.String(),
  at: Type.String(),
  kind: Type.String(),
  actor: Type.String(),
  sessionId: Type.Union([Type.String(), Type.Null()]),
  ...AUDIT_RECORD_FACTS,
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

/**
 * The audit outbox: a call's record is safe once this JetStream stream holds it (before the call is
 * answered); orchestrators drain it into the hash chain in PostgreSQL in batches. Work-queue retention
 * (a record leaves once written), discard-new (a full outbox refuses, never drops), one durable consumer
 * shared by every orchestrator.
 */
export const AUDIT_OUTBOX = {
  stream: 'TALON_AUDIT_OUTBOX',
  subject: 'talon.audit.v1.outbox',
  consumer: 'audit-writer',
} as const;

/** One record in the audit outbox, as its author wrote it; `recordId` is also the message id. */
export const AuditOutboxRecordSchema = Type.Object({
  recordId: Type.String({ format: 'uuid' }),
  at: Type.String({ minLength: 1, maxLength: 40 }),
  kind: Type.String({ minLength: 1, maxLength: 100 }),
  actor: Type.String({ minLength: 1, maxLength: 300 }),
  sessionId: Type.Union([Type.String({ format: 'uuid' }), Type.Null()]),
  ...AUDIT_RECORD_FACTS,
});
/** One record in the audit outbox. */
export type AuditOutboxRecord = Static<typeof AuditOutboxRecordSchema>;
