import { Type, type Static } from '@sinclair/typebox';
import { JobActionSchema, JobLimitsSchema, JobPolicySchema } from './jobs.js';

/** Smallest interval of an `interval` trigger. */
export const MIN_INTERVAL_MS = 1_000;

/**
 * What starts a routine. `cron`: 5 or 6 fields (seconds first when 6) in an IANA timezone (default UTC);
 * `interval`: every `everyMs` from `startAt` (default: creation); `once`: at an instant; `event`: a regex
 * over incoming chat messages (of one session when `sessionId` is set); `system_event`: a name raised by
 * `event_emit` or `events.emit`; `webhook`: `POST /v1/hooks/<routine-id>` signed with the routine's
 * secret; `manual`: only `routines.fire`.
 */
export const TriggerSchema = Type.Union([
  Type.Object(
    {
      kind: Type.Literal('cron'),
      expression: Type.String({ minLength: 1, maxLength: 200 }),
      timezone: Type.Optional(Type.String({ minLength: 1, maxLength: 64 })),
    },
    { additionalProperties: false },
  ),
  Type.Object(
    {
      kind: Type.Literal('interval'),
      everyMs: Type.Integer({ minimum: 1 }),
      startAt: Type.Optional(Type.String({ format: 'date-time' })),
    },
    { additionalProperties: false },
  ),
  Type.Object(
    { kind: Type.Literal('once'), at: Type.String({ format: 'date-time' }) },
    { additionalProperties: false },
  ),
  Type.Object(
    {
      kind: Type.Literal('event'),
      pattern: Type.String({ minLength: 1, maxLength: 500 }),
      flags: Type.Optional(Type.String({ pattern: '^[imsu]{0,4}$' })),
      sessionId: Type.Optional(Type.String({ format: 'uuid' })),
    },
    { additionalProperties: false },
  ),
  Type.Object(
    { kind: Type.Literal('system_event'), name: Type.String({ pattern: '^[A-Za-z0-9_.:-]{1,128}$' }) },
    { additionalProperties: false },
  ),
  Type.Object({ kind: Type.Literal('webhook') }, { additionalProperties: false }),
  Type.Object({ kind: Type.Literal('manual') }, { additionalProperties: false }),
]);
/** A routine trigger. */
export type Trigger = Static<typeof TriggerSchema>;
/** The kind of a trigger. */
export type TriggerKind = Trigger['kind'];

/** What a routine does after downtime with the slots it missed. */
export const CatchUpSchema = Type.Union([Type.Literal('skip'), Type.Literal('once'), Type.Literal('all')]);
/** A catch-up policy: `skip` (default) fires none of the missed, `once` the latest, `all` each up to `catchUpMax`. */
export type CatchUp = Static<typeof CatchUpSchema>;

/** Limits on how often and how much a routine runs. */
export const GuardrailsSchema = Type.Object(
  {
    /** Minimum time between two fires; a fire inside it is skipped. Default 0. */
    cooldownMs: Type.Optional(Type.Integer({ minimum: 0, maximum: 31_536_000_000 })),
    /** Jobs of this routine unfinished at once; a fire past it is skipped. Default 1. */
    maxConcurrent: Type.Optional(Type.Integer({ minimum: 1, maximum: 100 })),
    /** Event, system-event and webhook fires with the same dedup key inside this window are skipped. Default 0. */
    dedupWindowMs: Type.Optional(Type.Integer({ minimum: 0, maximum: 86_400_000 })),
    catchUp: Type.Optional(CatchUpSchema),
    /** Upper bound of slots fired by `catchUp: "all"`. Default 10. */
    catchUpMax: Type.Optional(Type.Integer({ minimum: 1, maximum: 1_000 })),
    /** A slot this late is missed (catch-up applies); a later one fires on time. Default 5000. */
    misfireGraceMs: Type.Optional(Type.Integer({ minimum: 250, maximum: 3_600_000 })),
    /** Consecutive failed jobs after which the routine disables itself. Default 5. */
    maxConsecutiveFailures: Type.Optional(Type.Integer({ minimum: 1, maximum: 1_000 })),
  },
  { additionalProperties: false },
);
/** Routine guardrails. */
export type Guardrails = Static<typeof GuardrailsSchema>;

/** A routine as the API shows it (never its webhook secret, which `routines.create` returns once). */
export const RoutineSchema = Type.Object({
  id: Type.String({ format: 'uuid' }),
  name: Type.String(),
  owner: Type.String({ description: '`api:<principal>`, `skill:<name>`, `session:<id>`, `model:<session>`' }),
  trigger: TriggerSchema,
  action: JobActionSchema,
  policy: JobPolicySchema,
  limits: JobLimitsSchema,
  guardrails: GuardrailsSchema,
  state: Type.Union([
    Type.Literal('active'),
    Type.Literal('paused'),
    Type.Literal('disabled'),
    Type.Literal('done'),
  ]),
  disabledReason: Type.Optional(Type.String()),
  consecutiveFailures: Type.Integer(),
  nextFireAt: Type.Optional(Type.String()),
  lastFireAt: Type.Optional(Type.String()),
  webhookPath: Type.Optional(Type.String()),
  createdAt: Type.String(),
  updatedAt: Type.String(),
});
/** A routine. */
export type Routine = Static<typeof RoutineSchema>;

/** Request of `routines.create`. */
export const RoutinesCreateRequestSchema = Type.Object(
  {
    name: Type.String({ minLength: 1, maxLength: 200 }),
    trigger: TriggerSchema,
    action: JobActionSchema,
    policy: Type.Optional(JobPolicySchema),
    limits: Type.Optional(JobLimitsSchema),
    guardrails: Type.Optional(GuardrailsSchema),
    paused: Type.Optional(Type.Boolean()),
  },
  { additionalProperties: false },
);
/** Request of `routines.create`. */
export type RoutinesCreateRequest = Static<typeof RoutinesCreateRequestSchema>;

/** Reply of `routines.create`: the routine, and for a webhook trigger its secret (shown once). */
export const RoutinesCreateReplySchema = Type.Object({
  routine: RoutineSchema,
  webhookSecret: Type.Optional(Type.String()),
});
/** Reply of `routines.create`. */
export type RoutinesCreateReply = Static<typeof RoutinesCreateReplySchema>;

/** Request of `routines.update`: the fields to change. */
export const RoutinesUpdateRequestSchema = Type.Object(
  {
    id: Type.String({ format: 'uuid' }),
    name: Type.Optional(Type.String({ minLength: 1, maxLength: 200 })),
    trigger: Type.Optional(TriggerSchema),
    action: Type.Optional(JobActionSchema),
    policy: Type.Optional(JobPolicySchema),
    limits: Type.Optional(JobLimitsSchema),
    guardrails: Type.Optional(GuardrailsSchema),
  },
  { additionalProperties: false },
);
/** Request of `routines.update`. */
export type RoutinesUpdateRequest = Static<typeof RoutinesUpdateRequestSchema>;

/** Request naming one routine (`routines.get`, `delete`, `pause`, `resume`). */
export const RoutineIdRequestSchema = Type.Object(
  { id: Type.String({ format: 'uuid' }) },
  { additionalProperties: false },
);
/** Request naming one routine. */
export type RoutineIdRequest = Static<typeof RoutineIdRequestSchema>;

/** Request of `routines.list`. */
export const RoutinesListRequestSchema = Type.Object(
  {
    owner: Type.Optional(Type.String({ maxLength: 200 })),
    limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 1000 })),
  },
  { additionalProperties: false },
);
/** Request of `routines.list`. */
export type RoutinesListRequest = Static<typeof RoutinesListRequestSchema>;

/** Request of `routines.fire`: a manual fire, with an optional input for the job. */
export const RoutinesFireRequestSchema = Type.Object(
  { id: Type.String({ format: 'uuid' }), input: Type.Optional(Type.Unknown()) },
  { additionalProperties: false },
);
/** Request of `routines.fire`. */
export type RoutinesFireRequest = Static<typeof RoutinesFireRequestSchema>;

/** Request of `routines.history`. */
export const RoutinesHistoryRequestSchema = Type.Object(
  {
    id: Type.String({ format: 'uuid' }),
    limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 10_000 })),
  },
  { additionalProperties: false },
);
/** Request of `routines.history`. */
export type RoutinesHistoryRequest = Static<typeof RoutinesHistoryRequestSchema>;

/** How a fire ended: `skipped` (guardrail), `enqueued`, then the job's final state. */
export const FireOutcomeSchema = Type.Union([
  Type.Literal('enqueued'),
  Type.Literal('skipped'),
  Type.Literal('completed'),
  Type.Literal('failed'),
  Type.Literal('cancelled'),
]);

/** One fire of a routine: the slot, who claimed it, its job and how it ended. */
export const RoutineFireSchema = Type.Object({
  id: Type.String(),
  routineId: Type.String(),
  slotAt: Type.String({ description: 'the scheduled instant (event fires: when the event arrived)' }),
  source: Type.String({ description: 'schedule | catch_up | event | system_event | webhook | manual' }),
  claimedBy: Type.String({ description: 'instance id of the orchestrator that claimed the slot' }),
  claimedAt: Type.String(),
  jobId: Type.Optional(Type.String()),
  outcome: FireOutcomeSchema,
  reason: Type.Optional(Type.String()),
  durationMs: Type.Optional(Type.Integer()),
});
/** A routine fire. */
export type RoutineFire = Static<typeof RoutineFireSchema>;

/** Reply of `routines.history`. */
export const RoutinesHistoryReplySchema = Type.Object({ fires: Type.Array(RoutineFireSchema) });

/** Request of `events.emit`: a system event; routines with a matching `system_event` trigger fire. */
export const EventsEmitRequestSchema = Type.Object(
  {
    name: Type.String({ pattern: '^[A-Za-z0-9_.:-]{1,128}$' }),
    payload: Type.Optional(Type.Unknown()),
    dedupKey: Type.Optional(Type.String({ minLength: 1, maxLength: 200 })),
  },
  { additionalProperties: false },
);
/** Request of `events.emit`. */
export type EventsEmitRequest = Static<typeof EventsEmitRequestSchema>;

/** Reply of `events.emit`: the fires it caused. */
export const EventsEmitReplySchema = Type.Object({ fires: Type.Array(RoutineFireSchema) });

/** Headers of a signed webhook call: `t=<unix seconds>,v1=<hex hmac-sha256 of "<t>.<body>">`. */
export const WEBHOOK_SIGNATURE_HEADER = 'talon-signature';
