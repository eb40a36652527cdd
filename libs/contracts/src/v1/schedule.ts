import { Type, type Static } from '@sinclair/typebox';

/** Longest text `schedule.parse` accepts on the wire; the parser itself reads at most 2,000 characters. */
export const SCHEDULE_REQUEST_MAX_TEXT = 8192;

/** Languages the schedule parser answers in (descriptions and questions follow the message). */
export const SCHEDULE_LANGUAGES = ['zh', 'en'] as const;
/** The language of a schedule message. */
export type ScheduleLanguage = (typeof SCHEDULE_LANGUAGES)[number];
/** JSON Schema of a schedule language. */
export const ScheduleLanguageSchema = Type.Union(SCHEDULE_LANGUAGES.map((value) => Type.Literal(value)));

/** What a parsed schedule should run: a reminder (the `_reminder` hand), an agent prompt, a hand, a workflow. */
export const SCHEDULE_TARGETS = ['reminder', 'agent', 'hand', 'workflow'] as const;
/** The kind of work a schedule runs. */
export type ScheduleTarget = (typeof SCHEDULE_TARGETS)[number];
/** JSON Schema of a schedule target. */
export const ScheduleTargetSchema = Type.Union(SCHEDULE_TARGETS.map((value) => Type.Literal(value)));

/** The rule families of the parser. */
export const SCHEDULE_FAMILIES = [
  'daily',
  'every_n_days',
  'weekly',
  'weekdays',
  'weekends',
  'interval',
  'monthly',
  'once',
] as const;
/** Which rule family produced a schedule. */
export type ScheduleFamily = (typeof SCHEDULE_FAMILIES)[number];
/** JSON Schema of a schedule family. */
export const ScheduleFamilySchema = Type.Union(SCHEDULE_FAMILIES.map((value) => Type.Literal(value)));

/**
 * When something runs: a 5-field cron in an IANA timezone, a fixed interval from a first instant (used when
 * the period does not fit a cron, e.g. every 45 minutes or every 3 days), or one absolute instant.
 */
export const ScheduleSpecSchema = Type.Union([
  Type.Object({
    type: Type.Literal('cron'),
    /** Minute, hour, day of month, month, day of week (0 = Sunday). */
    cron: Type.String(),
    timezone: Type.String(),
    /** The first fire after `now`, ISO 8601 with offset. */
    nextRunAt: Type.String(),
  }),
  Type.Object({
    type: Type.Literal('interval'),
    everyMs: Type.Integer({ minimum: 1000 }),
    /** The first fire, ISO 8601 with offset; later fires follow every `everyMs`. */
    firstRunAt: Type.String(),
    timezone: Type.String(),
  }),
  Type.Object({
    type: Type.Literal('once'),
    /** The instant, ISO 8601 with the timezone's offset. */
    at: Type.String(),
    timezone: Type.String(),
  }),
]);
/** When something runs. */
export type ScheduleSpec = Static<typeof ScheduleSpecSchema>;

/** One possible reading of an ambiguous message. */
export const ScheduleCandidateSchema = Type.Object({
  family: ScheduleFamilySchema,
  schedule: ScheduleSpecSchema,
  /** Natural description in the message's language, e.g. "每天 09:00" or "every weekday at 09:00". */
  description: Type.String(),
  confidence: Type.Number({ minimum: 0, maximum: 1 }),
});
/** One possible reading of an ambiguous message. */
export type ScheduleCandidate = Static<typeof ScheduleCandidateSchema>;

/**
 * Why a message is not an exact schedule. Stable: clients switch on it, never on the question.
 * Ambiguous: missing_time, missing_day, ambiguous_hour, multiple_times, missing_task.
 * Unclear: contradictory, invalid_time, invalid_date, in_past, too_long, unparsed.
 */
export const SCHEDULE_PROBLEMS = [
  'missing_time',
  'missing_day',
  'ambiguous_hour',
  'multiple_times',
  'missing_task',
  'contradictory',
  'invalid_time',
  'invalid_date',
  'in_past',
  'too_long',
  'unparsed',
] as const;
/** Why a message is not an exact schedule. */
export type ScheduleProblem = (typeof SCHEDULE_PROBLEMS)[number];
/** JSON Schema of a schedule problem. */
export const ScheduleProblemSchema = Type.Union(SCHEDULE_PROBLEMS.map((value) => Type.Literal(value)));

const taskFields = {
  /** The message with the schedule words (and "remind me") removed: what to do. */
  task: Type.String(),
  target: ScheduleTargetSchema,
  /** The hand named in the message, when the target is `hand`. */
  hand: Type.Optional(Type.String()),
  language: ScheduleLanguageSchema,
  /** The IANA timezone the schedule was computed in. */
  timezone: Type.String(),
};

/** The parser's answer: `exact` (confidence ≥ 0.8), `ambiguous`, `unclear` or `none`. */
export const ScheduleParseResultSchema = Type.Union([
  Type.Object({
    kind: Type.Literal('exact'),
    family: ScheduleFamilySchema,
    schedule: ScheduleSpecSchema,
    description: Type.String(),
    confidence: Type.Number({ minimum: 0.8, maximum: 1 }),
    ...taskFields,
  }),
  Type.Object({
    kind: Type.Literal('ambiguous'),
    problem: ScheduleProblemSchema,
    /** The question to ask, in the message's language. */
    question: Type.String(),
    candidates: Type.Array(ScheduleCandidateSchema, { minItems: 1 }),
    ...taskFields,
  }),
  Type.Object({
    kind: Type.Literal('unclear'),
    problem: ScheduleProblemSchema,
    /** The clarifying question, in the message's language. */
    question: Type.String(),
    ...taskFields,
  }),
  Type.Object({
    kind: Type.Literal('none'),
    task: Type.String(),
    language: ScheduleLanguageSchema,
  }),
]);
/** The parser's answer. */
export type ScheduleParseResult = Static<typeof ScheduleParseResultSchema>;

/** Request of `schedule.parse`. */
export const ScheduleParseRequestSchema = Type.Object(
  {
    text: Type.String({ minLength: 1, maxLength: SCHEDULE_REQUEST_MAX_TEXT }),
    /** IANA timezone; default the orchestrator's. */
    timezone: Type.Optional(Type.String({ minLength: 1, maxLength: 64 })),
    /** ISO 8601 instant to compute from; default the current time. */
    now: Type.Optional(Type.String({ minLength: 1, maxLength: 40 })),
  },
  { additionalProperties: false },
);
/** Request of `schedule.parse`. */
export type ScheduleParseRequest = Static<typeof ScheduleParseRequestSchema>;
