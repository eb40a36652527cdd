import { Type, type Static } from '@sinclair/typebox';

/** The states of a job. `pending → running → completed | failed | cancelled | stuck`; `running ⇄ waiting_approval`. */
export const JOB_STATES = [
  'pending',
  'running',
  'waiting_approval',
  'completed',
  'failed',
  'cancelled',
  'stuck',
] as const;
/** One of {@link JOB_STATES}. */
export type JobState = (typeof JOB_STATES)[number];
/** States after which nothing runs again. (`stuck` is passing: the runner cancels a stuck job.) */
export const FINAL_JOB_STATES: readonly JobState[] = ['completed', 'failed', 'cancelled'];

/** A job state as a schema. */
export const JobStateSchema = Type.Union(JOB_STATES.map((state) => Type.Literal(state)));

/** A tool name as the model sees it. */
const ToolName = Type.String({ pattern: '^[a-zA-Z0-9_.-]{1,64}$' });

/**
 * What a job does. `prompt`: an autonomous agent turn; `tool`: one tool call through policy; `skill`: a
 * turn with the skill activated (its rendered body in the prompt, `params` from the trigger);
 * `reminder`: a message delivered to a session's event stream (issue 14 builds on it); `hand`: a hand
 * run (accepted only when a hand runtime is registered).
 */
export const JobActionSchema = Type.Union([
  Type.Object(
    { kind: Type.Literal('prompt'), prompt: Type.String({ minLength: 1, maxLength: 100_000 }) },
    { additionalProperties: false },
  ),
  Type.Object(
    {
      kind: Type.Literal('tool'),
      tool: ToolName,
      params: Type.Optional(Type.Record(Type.String(), Type.Unknown())),
    },
    { additionalProperties: false },
  ),
  Type.Object(
    {
      kind: Type.Literal('skill'),
      skill: Type.String({ pattern: '^[a-z0-9][a-z0-9-]{0,63}$' }),
      prompt: Type.Optional(Type.String({ maxLength: 100_000 })),
      params: Type.Optional(Type.Record(Type.String(), Type.Unknown())),
    },
    { additionalProperties: false },
  ),
  Type.Object(
    {
      kind: Type.Literal('reminder'),
      text: Type.String({ minLength: 1, maxLength: 10_000 }),
      sessionId: Type.Optional(Type.String({ format: 'uuid' })),
      target: Type.Optional(Type.String({ maxLength: 64, description: 'default `_reminder`' })),
    },
    { additionalProperties: false },
  ),
  Type.Object(
    {
      kind: Type.Literal('hand'),
      hand: Type.String({ minLength: 1, maxLength: 64 }),
      params: Type.Optional(Type.Record(Type.String(), Type.Unknown())),
    },
    { additionalProperties: false },
  ),
]);
/** What a job does. */
export type JobAction = Static<typeof JobActionSchema>;
/** The kind of a job's action. */
export type JobKind = JobAction['kind'];

/** A pre-approval a job carries: becomes a grant of the job's session. */
export const JobGrantSchema = Type.Object(
  {
    kind: Type.Union([Type.Literal('tool'), Type.Literal('effect')]),
    target: Type.String({ minLength: 1, maxLength: 128 }),
    action: Type.Union([Type.Literal('allow'), Type.Literal('deny')]),
  },
  { additionalProperties: false },
);
/** A job grant. */
export type JobGrant = Static<typeof JobGrantSchema>;

/** The tools a job may use and the approvals it carries. */
export const JobPolicySchema = Type.Object(
  {
    /** Only these tools are offered and may be dispatched (absent: the whole catalog, under policy). */
    tools: Type.Optional(Type.Array(ToolName, { maxItems: 200 })),
    grants: Type.Optional(Type.Array(JobGrantSchema, { maxItems: 100 })),
    /** `deny` (default): a call that needs a person is refused; `wait`: the job waits in `waiting_approval`. */
    onApproval: Type.Optional(Type.Union([Type.Literal('deny'), Type.Literal('wait')])),
    /** Attempts in all (a retry happens only when an orchestrator died under the job). Default 1. */
    maxAttempts: Type.Optional(Type.Integer({ minimum: 1, maximum: 10 })),
  },
  { additionalProperties: false },
);
/** A job policy. */
export type JobPolicy = Static<typeof JobPolicySchema>;

/** Bounds of one job run. */
export const JobLimitsSchema = Type.Object(
  {
    /** Model calls. Default 8. */
    maxIterations: Type.Optional(Type.Integer({ minimum: 1, maximum: 100 })),
    /** Wall time of one attempt; past it the job is `stuck`, then cancelled. Default 600000 (10 min). */
    maxWallTimeMs: Type.Optional(Type.Integer({ minimum: 100, maximum: 86_400_000 })),
    /** Tool calls. Default 50. */
    maxToolCalls: Type.Optional(Type.Integer({ minimum: 0, maximum: 1_000 })),
    /** Input + output tokens; the job fails past it. Default: no budget. */
    maxTokens: Type.Optional(Type.Integer({ minimum: 1 })),
  },
  { additionalProperties: false },
);
/** Job limits. */
export type JobLimits = Static<typeof JobLimitsSchema>;

/** A job as the API shows it. */
export const JobSchema = Type.Object({
  id: Type.String({ format: 'uuid' }),
  kind: Type.String(),
  state: JobStateSchema,
  action: JobActionSchema,
  input: Type.Optional(Type.Unknown({ description: 'what the trigger passed (webhook body, event)' })),
  policy: JobPolicySchema,
  limits: JobLimitsSchema,
  sessionId: Type.Optional(Type.String()),
  routineId: Type.Optional(Type.String()),
  attempt: Type.Integer(),
  leaseOwner: Type.Optional(Type.String()),
  leaseExpiresAt: Type.Optional(Type.String()),
  result: Type.Optional(Type.Unknown()),
  error: Type.Optional(Type.Object({ code: Type.String(), message: Type.String() })),
  createdAt: Type.String(),
  startedAt: Type.Optional(Type.String()),
  finishedAt: Type.Optional(Type.String()),
  updatedAt: Type.String(),
});
/** A job. */
export type Job = Static<typeof JobSchema>;

/** One stored event of a job (also published on `talon.events.v1.job.<id>`). */
export const JobEventSchema = Type.Object(
  { jobId: Type.String(), seq: Type.Integer(), type: Type.String(), at: Type.String() },
  { additionalProperties: true },
);
/** A job event: `job.created`, `job.started`, `job.tool_call`, `job.waiting_approval`, `job.stuck`, `job.finished`, … */
export type JobEvent = Static<typeof JobEventSchema> & Record<string, unknown>;

/** Request of `jobs.create`. */
export const JobsCreateRequestSchema = Type.Object(
  {
    action: JobActionSchema,
    input: Type.Optional(Type.Unknown()),
    policy: Type.Optional(JobPolicySchema),
    limits: Type.Optional(JobLimitsSchema),
  },
  { additionalProperties: false },
);
/** Request of `jobs.create`. */
export type JobsCreateRequest = Static<typeof JobsCreateRequestSchema>;

/** Request of `jobs.list`. */
export const JobsListRequestSchema = Type.Object(
  {
    state: Type.Optional(JobStateSchema),
    routineId: Type.Optional(Type.String({ format: 'uuid' })),
    limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 500 })),
  },
  { additionalProperties: false },
);
/** Request of `jobs.list`. */
export type JobsListRequest = Static<typeof JobsListRequestSchema>;

/** Request of `jobs.get`, `jobs.cancel`. */
export const JobIdRequestSchema = Type.Object(
  { id: Type.String({ format: 'uuid' }) },
  { additionalProperties: false },
);
/** Request naming one job. */
export type JobIdRequest = Static<typeof JobIdRequestSchema>;

/** Request of `jobs.events`: the stored events after `afterSeq`. */
export const JobsEventsRequestSchema = Type.Object(
  {
    id: Type.String({ format: 'uuid' }),
    afterSeq: Type.Optional(Type.Integer({ minimum: 0 })),
    limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 1000 })),
  },
  { additionalProperties: false },
);
/** Request of `jobs.events`. */
export type JobsEventsRequest = Static<typeof JobsEventsRequestSchema>;

/** Reply of `jobs.list`. */
export const JobsListReplySchema = Type.Object({ jobs: Type.Array(JobSchema) });
/** Reply of `jobs.events`. */
export const JobsEventsReplySchema = Type.Object({ events: Type.Array(JobEventSchema) });
