import { Type, type Static } from '@sinclair/typebox';
import { SkillGatingSchema } from './skills.js';
import { ToolEffectSchema } from './tools.js';

/** Where a hand definition came from: a ZCLAW `[hand]` file, an OpenFang flat file, or Talon's code. */
export const HAND_DIALECTS = ['zclaw', 'openfang', 'system'] as const;
/** The dialect of a hand definition. */
export type HandDialect = (typeof HAND_DIALECTS)[number];
/** JSON Schema of a hand dialect. */
export const HandDialectSchema = Type.Union(HAND_DIALECTS.map((value) => Type.Literal(value)));

/** What a hand needs on the host: an executable on PATH, an environment variable, an API key (in the env). */
export const HandRequirementSchema = Type.Object({
  kind: Type.Union([Type.Literal('binary'), Type.Literal('env_var'), Type.Literal('api_key')]),
  /** The executable or variable name. */
  name: Type.String(),
  label: Type.Optional(Type.String()),
  /** An optional requirement never gates the hand out; it is listed so that people can add it. */
  optional: Type.Boolean(),
  /** Install hints by platform or tool (`macos`, `linux`, `pip`, …). */
  install: Type.Optional(Type.Record(Type.String(), Type.String())),
});
/** One requirement of a hand. */
export type HandRequirement = Static<typeof HandRequirementSchema>;

/** A choice of a `select` setting. */
export const HandSettingOptionSchema = Type.Object({ value: Type.String(), label: Type.String() });
/** A choice of a `select` setting. */
export type HandSettingOption = Static<typeof HandSettingOptionSchema>;

/** A setting people choose when they activate a hand; rendered into the hand's system prompt. */
export const HandSettingSchema = Type.Object({
  key: Type.String(),
  label: Type.String(),
  description: Type.Optional(Type.String()),
  kind: Type.Union([Type.Literal('select'), Type.Literal('text'), Type.Literal('toggle')]),
  /** The choices of a `select` setting (never empty for one). */
  options: Type.Array(HandSettingOptionSchema),
  default: Type.Optional(Type.Union([Type.String(), Type.Boolean()])),
});
/** One setting of a hand. */
export type HandSetting = Static<typeof HandSettingSchema>;

/** The value of each setting, by key. */
export const HandSettingValuesSchema = Type.Record(
  Type.String(),
  Type.Union([Type.String(), Type.Boolean()]),
);
/** The value of each setting, by key. */
export type HandSettingValues = Static<typeof HandSettingValuesSchema>;

/** The model side of a hand: which model, its limits and the system prompt. */
export const HandAgentSchema = Type.Object({
  provider: Type.Optional(Type.String()),
  model: Type.Optional(Type.String()),
  temperature: Type.Optional(Type.Number()),
  maxTokens: Type.Optional(Type.Integer({ minimum: 1 })),
  maxIterations: Type.Optional(Type.Integer({ minimum: 1 })),
  systemPrompt: Type.String(),
});
/** The model side of a hand. */
export type HandAgent = Static<typeof HandAgentSchema>;

/** A chat event that may start a hand (ZCLAW `[[hand.triggers.events]]`); the pattern passed the ReDoS guard. */
export const HandEventTriggerSchema = Type.Object({
  type: Type.String(),
  pattern: Type.Optional(Type.String()),
  priority: Type.Integer(),
});

/** How a hand may be started. */
export const HandTriggersSchema = Type.Object({
  manual: Type.Boolean(),
  /** A cron (5 or 6 fields) with an optional IANA timezone; checked with croner when the hand loads. */
  schedule: Type.Optional(Type.Object({ cron: Type.String(), timezone: Type.Optional(Type.String()) })),
  /** Every this many seconds (OpenFang `schedule = { interval = 3600 }`, ZCLAW `interval = 3600`). */
  intervalSeconds: Type.Optional(Type.Integer({ minimum: 1 })),
  /** Once, as soon as the hand's file appears (OpenFang `schedule = "once"`). */
  once: Type.Optional(Type.Boolean()),
  webhook: Type.Boolean(),
  events: Type.Array(HandEventTriggerSchema),
});
/** How a hand may be started. */
export type HandTriggers = Static<typeof HandTriggersSchema>;

/** A dashboard figure read from a memory key the hand writes. */
export const HandMetricSchema = Type.Object({
  label: Type.String(),
  memoryKey: Type.String(),
  format: Type.Union([
    Type.Literal('number'),
    Type.Literal('text'),
    Type.Literal('duration'),
    Type.Literal('bytes'),
    Type.Literal('percent'),
    Type.Literal('date'),
  ]),
});
/** A dashboard figure of a hand. */
export type HandMetric = Static<typeof HandMetricSchema>;

/** One step of a ZCLAW `[[hand.workflow]]`: a tool to call or an instruction for the model. */
export const HandWorkflowStepSchema = Type.Object({
  name: Type.String(),
  tool: Type.Optional(Type.String()),
  prompt: Type.Optional(Type.String()),
});
/** One workflow step of a hand. */
export type HandWorkflowStep = Static<typeof HandWorkflowStepSchema>;

/** A hand in Talon's one normalised shape, whichever dialect it was written in. */
export const HandSchema = Type.Object({
  /** `^[a-z][a-z0-9_-]{0,63}$`; ids starting with `_` are system hands registered in code. */
  id: Type.String(),
  name: Type.String(),
  version: Type.String(),
  description: Type.String(),
  dialect: HandDialectSchema,
  /** True for hands registered in code (`_reminder`). */
  system: Type.Boolean(),
  category: Type.Optional(Type.String()),
  icon: Type.Optional(Type.String()),
  tags: Type.Array(Type.String()),
  /** The only tools a run of the hand may call (enforced at dispatch). */
  tools: Type.Array(Type.String()),
  effects: Type.Array(ToolEffectSchema),
  skills: Type.Array(Type.String()),
  mcpServers: Type.Array(Type.String()),
  requiresApproval: Type.Boolean(),
  timeoutMs: Type.Optional(Type.Integer({ minimum: 1000 })),
  maxConcurrent: Type.Optional(Type.Integer({ minimum: 1 })),
  rateLimit: Type.Optional(
    Type.Object({ maxRuns: Type.Integer({ minimum: 1 }), windowSeconds: Type.Integer({ minimum: 1 }) }),
  ),
  audit: Type.Optional(
    Type.Object({
      logInputs: Type.Boolean(),
      logOutputs: Type.Boolean(),
      retentionDays: Type.Optional(Type.Integer({ minimum: 1 })),
    }),
  ),
  requires: Type.Array(HandRequirementSchema),
  settings: Type.Array(HandSettingSchema),
  agent: HandAgentSchema,
  triggers: HandTriggersSchema,
  workflow: Type.Array(HandWorkflowStepSchema),
  metrics: Type.Array(HandMetricSchema),
  /** Absolute path of the HAND.toml; absent for system hands. */
  path: Type.Optional(Type.String()),
  /** Fields the parser did not know and ignored. */
  warnings: Type.Array(Type.String()),
});
/** A hand. */
export type Hand = Static<typeof HandSchema>;

/** Stable reasons a HAND.toml is refused. Clients switch on the reason, never on the message. */
export const HAND_REJECTION_REASONS = [
  'too_large',
  'unreadable',
  'bad_toml',
  'unknown_dialect',
  'missing_field',
  'invalid_field',
  'invalid_id',
  'reserved_id',
  'id_mismatch',
  'unknown_tool',
  'invalid_setting',
  'invalid_trigger',
] as const;
/** Why a HAND.toml was refused. */
export type HandRejectionReason = (typeof HAND_REJECTION_REASONS)[number];

/** A refused HAND.toml: where it is, the stable reason and a message that says what to fix. */
export const HandRejectionSchema = Type.Object({
  reason: Type.Union(HAND_REJECTION_REASONS.map((value) => Type.Literal(value))),
  message: Type.String(),
  path: Type.String(),
  id: Type.Optional(Type.String()),
});
/** A refused HAND.toml. */
export type HandRejection = Static<typeof HandRejectionSchema>;

/** A hand as listed: its definition and whether its requirements hold on this host. */
export const HandSummarySchema = Type.Composite([HandSchema, Type.Object({ gating: SkillGatingSchema })]);
/** A hand as listed. */
export type HandSummary = Static<typeof HandSummarySchema>;

/** Request of `hands.list`. */
export const HandsListRequestSchema = Type.Object({}, { additionalProperties: false });

/** Reply of `hands.list`: the hands found (system hands first) and the files refused. */
export const HandsListReplySchema = Type.Object({
  hands: Type.Array(HandSummarySchema),
  rejected: Type.Array(HandRejectionSchema),
});
/** Reply of `hands.list`. */
export type HandsListReply = Static<typeof HandsListReplySchema>;

/** Request of `hands.get`. */
export const HandsGetRequestSchema = Type.Object(
  { id: Type.String({ minLength: 1, maxLength: 64, pattern: '^_?[a-z][a-z0-9_-]{0,63}$' }) },
  { additionalProperties: false },
);
/** Request of `hands.get`. */
export type HandsGetRequest = Static<typeof HandsGetRequestSchema>;

/** A hand id on the wire: file hands `^[a-z]…`, system hands `_…`. */
const HandId = Type.String({ minLength: 1, maxLength: 64, pattern: '^_?[a-z][a-z0-9_-]{0,63}$' });
/** A hand instance name: the id people give an activated hand. */
const InstanceName = Type.String({ minLength: 1, maxLength: 64, pattern: '^[a-z0-9][a-z0-9_-]{0,63}$' });

/** The states of an activated hand (OpenFang): runs start only from `active`. */
export const HAND_INSTANCE_STATES = ['active', 'paused', 'error', 'inactive'] as const;
/** The state of a hand instance. */
export type HandInstanceState = (typeof HAND_INSTANCE_STATES)[number];

/** A hand activated as a named instance with chosen settings. */
export const HandInstanceSchema = Type.Object({
  name: Type.String(),
  hand: Type.String(),
  state: Type.Union(HAND_INSTANCE_STATES.map((value) => Type.Literal(value))),
  /** Every setting's value (chosen or default), checked against the hand's options. */
  settings: HandSettingValuesSchema,
  /** Why the instance is in `error` (its hand no longer loads, a run failed). */
  error: Type.Optional(Type.String()),
  createdBy: Type.String(),
  createdAt: Type.String(),
  updatedAt: Type.String(),
});
/** A hand instance. */
export type HandInstance = Static<typeof HandInstanceSchema>;

/**
 * The states of a hand run: `awaiting_approval` (the hand requires approval; nothing runs yet), `denied`
 * (refused or timed out), then the states of its job.
 */
export const HAND_RUN_STATES = [
  'awaiting_approval',
  'denied',
  'pending',
  'running',
  'waiting_approval',
  'completed',
  'failed',
  'cancelled',
  'stuck',
] as const;
/** The state of a hand run. */
export type HandRunState = (typeof HAND_RUN_STATES)[number];
/** A hand run state as a schema. */
export const HandRunStateSchema = Type.Union(HAND_RUN_STATES.map((value) => Type.Literal(value)));

/** One run of a hand: a job with the hand's prompt, settings, tools and limits. */
export const HandRunSchema = Type.Object({
  /** The run id, also the id of its job once it is queued. */
  id: Type.String({ format: 'uuid' }),
  hand: Type.String(),
  instance: Type.Optional(Type.String()),
  state: HandRunStateSchema,
  settings: HandSettingValuesSchema,
  input: Type.Optional(Type.String()),
  requestedBy: Type.String(),
  /** Until when an approval may be given (runs of hands that require approval). */
  approvalDeadline: Type.Optional(Type.String()),
  decidedBy: Type.Optional(Type.String()),
  decidedAt: Type.Optional(Type.String()),
  result: Type.Optional(Type.Unknown()),
  error: Type.Optional(Type.Object({ code: Type.String(), message: Type.String() })),
  createdAt: Type.String(),
  startedAt: Type.Optional(Type.String()),
  finishedAt: Type.Optional(Type.String()),
});
/** A hand run. */
export type HandRun = Static<typeof HandRunSchema>;

/** Request of `hands.execute`: run a hand (or an activated instance of it) once. */
export const HandsExecuteRequestSchema = Type.Object(
  {
    /** The hand, or omit it and name an `instance`. */
    id: Type.Optional(HandId),
    instance: Type.Optional(InstanceName),
    /** Settings for this run (on top of the instance's or the defaults). */
    settings: Type.Optional(HandSettingValuesSchema),
    /** What to work on (a question, a list of URLs): the user message of the run. */
    input: Type.Optional(Type.String({ maxLength: 20_000 })),
  },
  { additionalProperties: false },
);
/** Request of `hands.execute`. */
export type HandsExecuteRequest = Static<typeof HandsExecuteRequestSchema>;

/** Request naming one run (`hands.approve`, `hands.runs.get`, `hands.runs.cancel`). */
export const HandRunIdRequestSchema = Type.Object(
  { runId: Type.String({ format: 'uuid' }) },
  { additionalProperties: false },
);
/** Request naming one run. */
export type HandRunIdRequest = Static<typeof HandRunIdRequestSchema>;

/** Request of `hands.approve`: approve (default) or deny a run waiting for approval. */
export const HandsApproveRequestSchema = Type.Object(
  {
    runId: Type.String({ format: 'uuid' }),
    decision: Type.Optional(Type.Union([Type.Literal('approve'), Type.Literal('deny')])),
  },
  { additionalProperties: false },
);
/** Request of `hands.approve`. */
export type HandsApproveRequest = Static<typeof HandsApproveRequestSchema>;

/** Request of `hands.cancel`: stop every unfinished run of a hand or of an instance. */
export const HandsCancelRequestSchema = Type.Object(
  { id: Type.Optional(HandId), instance: Type.Optional(InstanceName) },
  { additionalProperties: false },
);
/** Request of `hands.cancel`. */
export type HandsCancelRequest = Static<typeof HandsCancelRequestSchema>;

/** Request of `hands.activate`: a named instance of a hand with chosen settings. */
export const HandsActivateRequestSchema = Type.Object(
  { id: HandId, name: InstanceName, settings: Type.Optional(HandSettingValuesSchema) },
  { additionalProperties: false },
);
/** Request of `hands.activate`. */
export type HandsActivateRequest = Static<typeof HandsActivateRequestSchema>;

/** Request naming one instance (`hands.pause`, `hands.resume`, `hands.delete`). */
export const HandInstanceRequestSchema = Type.Object({ name: InstanceName }, { additionalProperties: false });
/** Request naming one instance. */
export type HandInstanceRequest = Static<typeof HandInstanceRequestSchema>;

/** Request of `hands.runs.list`. */
export const HandsRunsListRequestSchema = Type.Object(
  {
    hand: Type.Optional(HandId),
    instance: Type.Optional(InstanceName),
    state: Type.Optional(HandRunStateSchema),
    limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 500 })),
  },
  { additionalProperties: false },
);
/** Request of `hands.runs.list`. */
export type HandsRunsListRequest = Static<typeof HandsRunsListRequestSchema>;

/** One dashboard figure as read now from the memory key the hand writes (absent: never written). */
export const HandMetricValueSchema = Type.Object({
  label: Type.String(),
  memoryKey: Type.String(),
  format: Type.String(),
  value: Type.Optional(Type.String()),
  updatedAt: Type.Optional(Type.String()),
});
/** A dashboard figure's value. */
export type HandMetricValue = Static<typeof HandMetricValueSchema>;

/** Reply of `hands.instances`: activated instances with their dashboard figures. */
export const HandInstancesReplySchema = Type.Object({
  instances: Type.Array(
    Type.Composite([HandInstanceSchema, Type.Object({ metrics: Type.Array(HandMetricValueSchema) })]),
  ),
});
/** Reply of `hands.instances`. */
export type HandInstancesReply = Static<typeof HandInstancesReplySchema>;

/** Request of `hands.instances`: every instance, or those of one hand. */
export const HandsInstancesRequestSchema = Type.Object(
  { id: Type.Optional(Type.String({ maxLength: 64 })) },
  { additionalProperties: false },
);
/** Request of `hands.instances`. */
export type HandsInstancesRequest = Static<typeof HandsInstancesRequestSchema>;
