import { Type, type Static } from '@sinclair/typebox';
import { ToolDefinitionSchema } from './tools.js';

/** How far a skill is trusted: workspace and user skills are Trusted, installed ones are Installed. */
export const SKILL_TRUST_LEVELS = ['TRUSTED', 'INSTALLED'] as const;
/** A skill's trust level. */
export type SkillTrust = (typeof SKILL_TRUST_LEVELS)[number];
/** JSON Schema of a trust level. */
export const SkillTrustSchema = Type.Union(SKILL_TRUST_LEVELS.map((value) => Type.Literal(value)));

/** The directories skills are discovered from, in precedence order. */
export const SKILL_SOURCES = ['workspace', 'user', 'installed'] as const;
/** Which directory a skill came from. */
export type SkillSource = (typeof SKILL_SOURCES)[number];
/** JSON Schema of a skill source. */
export const SkillSourceSchema = Type.Union(SKILL_SOURCES.map((value) => Type.Literal(value)));

/** Stable reasons a SKILL.md is refused. Clients switch on the reason, never on the message. */
export const SKILL_REJECTION_REASONS = [
  'too_large',
  'empty_body',
  'symlink_escape',
  'bad_yaml',
  'unsupported_front_matter',
  'missing_front_matter',
  'invalid_regex',
  'unsafe_regex',
  'invalid_name',
  'name_mismatch',
  'missing_description',
  'description_too_long',
  'invalid_field',
  'unreadable',
] as const;
/** Why a SKILL.md was refused. */
export type SkillRejectionReason = (typeof SKILL_REJECTION_REASONS)[number];
/** JSON Schema of a rejection reason. */
export const SkillRejectionReasonSchema = Type.Union(
  SKILL_REJECTION_REASONS.map((value) => Type.Literal(value)),
);

/** A refused SKILL.md: where it is, the stable reason and a message that says what to fix. */
export const SkillRejectionSchema = Type.Object({
  reason: SkillRejectionReasonSchema,
  message: Type.String(),
  path: Type.String(),
  /** The folder name, when the file sits in a skill folder. */
  name: Type.Optional(Type.String()),
  source: Type.Optional(SkillSourceSchema),
});
/** A refused SKILL.md. */
export type SkillRejection = Static<typeof SkillRejectionSchema>;

/** A trigger that starts a skill without a keyword match. */
export const SkillTriggerSchema = Type.Union([
  Type.Object({ kind: Type.Literal('command'), command: Type.String({ description: 'e.g. "/review"' }) }),
  Type.Object({
    kind: Type.Literal('schedule'),
    cron: Type.String(),
    timezone: Type.Optional(Type.String()),
  }),
  Type.Object({ kind: Type.Literal('webhook'), event: Type.String() }),
  Type.Object({ kind: Type.Literal('manual') }),
]);
/** A skill trigger. */
export type SkillTrigger = Static<typeof SkillTriggerSchema>;

/** The JSON types a skill parameter may declare (validated with ajv). */
export const SKILL_PARAMETER_TYPES = ['string', 'number', 'integer', 'boolean', 'array', 'object'] as const;

/** A declared template parameter of a workflow-style skill. */
export const SkillParameterSchema = Type.Object({
  name: Type.String(),
  type: Type.Union(SKILL_PARAMETER_TYPES.map((value) => Type.Literal(value))),
  description: Type.Optional(Type.String()),
  required: Type.Boolean(),
  default: Type.Optional(Type.Unknown()),
  /** The only values accepted. */
  enum: Type.Optional(Type.Array(Type.Unknown())),
});
/** A skill parameter. */
export type SkillParameter = Static<typeof SkillParameterSchema>;

/**
 * A tool a skill declares in `tools:`. Every declared tool is required unless marked optional (`name?` or
 * `{name, optional: true}`); a skill whose required tools are neither in the live catalog nor installable is
 * gated out with the reason.
 */
export const SkillToolDeclarationSchema = Type.Object({
  name: Type.String(),
  optional: Type.Boolean(),
});
/** A declared tool. */
export type SkillToolDeclaration = Static<typeof SkillToolDeclarationSchema>;

/** Files found in a skill folder's resource sub-folders (listed, never loaded). Paths are relative to the folder. */
export const SkillResourcesSchema = Type.Object({
  scripts: Type.Array(Type.String()),
  references: Type.Array(Type.String()),
  assets: Type.Array(Type.String()),
});
/** A skill's resources. */
export type SkillResources = Static<typeof SkillResourcesSchema>;

/** Whether a skill's requirements (binaries, env vars, config files, OS) hold on this host. */
export const SkillGatingSchema = Type.Object({
  eligible: Type.Boolean(),
  /** Human-readable reasons a gated-out skill is unavailable; empty when eligible. */
  reasons: Type.Array(Type.String()),
});
/** A skill's gating status. */
export type SkillGating = Static<typeof SkillGatingSchema>;

/** A discovered skill as listed to clients (no body). */
export const SkillSummarySchema = Type.Object({
  name: Type.String(),
  version: Type.String(),
  description: Type.String(),
  trust: SkillTrustSchema,
  source: SkillSourceSchema,
  /** Absolute path of the skill folder. */
  dir: Type.String(),
  keywords: Type.Array(Type.String()),
  tags: Type.Array(Type.String()),
  resources: SkillResourcesSchema,
  gating: SkillGatingSchema,
  triggers: Type.Array(SkillTriggerSchema),
  parameters: Type.Array(SkillParameterSchema),
  /** Tools the skill declares in `tools:` (required unless optional). */
  tools: Type.Optional(Type.Array(SkillToolDeclarationSchema)),
  /** Tools its `allowed-tools` pre-approves while it is active (Trusted skills only; see docs/security.md). */
  preApprovedTools: Type.Optional(Type.Array(Type.String())),
  /** The body's template dialect (the `template` field, else detected). */
  template: Type.Optional(Type.Union([Type.Literal('mustache'), Type.Literal('jinja')])),
  /** Front-matter dialects recognised in the file (`agent-skills`, `ironclaw`, `workflow`). */
  dialects: Type.Array(Type.String()),
});
/** A skill summary. */
export type SkillSummary = Static<typeof SkillSummarySchema>;

/** A skill hidden by an earlier directory's skill of the same name. */
export const ShadowedSkillSchema = Type.Object({
  name: Type.String(),
  path: Type.String(),
  source: SkillSourceSchema,
  shadowedBy: Type.String({ description: 'path of the SKILL.md that won' }),
});
/** A shadowed skill. */
export type ShadowedSkill = Static<typeof ShadowedSkillSchema>;

/** The outcome of one discovery run. */
export const DiscoveryReportSchema = Type.Object({
  generation: Type.Integer({ minimum: 0, description: 'increases with every re-discovery' }),
  discoveredAt: Type.String(),
  dirs: Type.Array(Type.Object({ source: SkillSourceSchema, path: Type.String(), exists: Type.Boolean() })),
  /** All loaded skills, eligible or gated out (see `gating`). */
  skills: Type.Array(SkillSummarySchema),
  rejected: Type.Array(SkillRejectionSchema),
  shadowed: Type.Array(ShadowedSkillSchema),
});
/** A discovery report. */
export type DiscoveryReport = Static<typeof DiscoveryReportSchema>;

/** Request of `skills.select`. */
export const SelectRequestSchema = Type.Object({
  message: Type.String({ maxLength: 200000 }),
  maxActive: Type.Optional(Type.Integer({ minimum: 0, maximum: 50 })),
  maxContextTokens: Type.Optional(Type.Integer({ minimum: 0, maximum: 200000 })),
  /** Values for the parameters of the selected skills, by skill name. */
  parameters: Type.Optional(Type.Record(Type.String(), Type.Record(Type.String(), Type.Unknown()))),
});
/** A selection request. */
export type SelectRequest = Static<typeof SelectRequestSchema>;

/** How a skill came to be considered. */
export const SELECTION_TIERS = ['mention', 'keyword', 'similarity'] as const;
/** A selection tier. */
export type SelectionTier = (typeof SELECTION_TIERS)[number];

/** What happened to a considered skill. */
export const SELECTION_OUTCOMES = [
  'active',
  'vetoed',
  'over_budget',
  'over_max_active',
  'below_threshold',
  'gated_out',
  'render_failed',
] as const;
/** A selection outcome. */
export type SelectionOutcome = (typeof SELECTION_OUTCOMES)[number];

/** One skill that the selector scored. */
export const ConsideredSkillSchema = Type.Object({
  name: Type.String(),
  trust: SkillTrustSchema,
  tier: Type.Union(SELECTION_TIERS.map((value) => Type.Literal(value))),
  score: Type.Number(),
  costTokens: Type.Integer(),
  outcome: Type.Union(SELECTION_OUTCOMES.map((value) => Type.Literal(value))),
  reasons: Type.Array(Type.String()),
});
/** A considered skill. */
export type ConsideredSkill = Static<typeof ConsideredSkillSchema>;

/** An activated skill with its injection block. */
export const ActiveSkillSchema = Type.Object({
  name: Type.String(),
  version: Type.String(),
  trust: SkillTrustSchema,
  tier: Type.Union(SELECTION_TIERS.map((value) => Type.Literal(value))),
  score: Type.Number(),
  costTokens: Type.Integer(),
  reasons: Type.Array(Type.String()),
  /** Tool names the skill declares (`allowed-tools`/`tools`); informative, see attenuation. */
  allowedTools: Type.Array(Type.String()),
  /** The tools of `tools:`, each required unless optional; resolved against the live catalog on activation. */
  tools: Type.Optional(Type.Array(SkillToolDeclarationSchema)),
  /** The tools of `allowed-tools`: pre-approved while the skill is active, if it is Trusted. */
  preApprovedTools: Type.Optional(Type.Array(Type.String())),
  /** The `<skill …>…</skill>` block for the system prompt. */
  injection: Type.String(),
  /**
   * For a skill activated by a mention or command: the mention and the rest of its line as written
   * (`/standup squad=payments days=3`), from which the skill's declared parameters are filled.
   */
  invocation: Type.Optional(Type.String()),
});
/** An active skill. */
export type ActiveSkill = Static<typeof ActiveSkillSchema>;

/** How a deployment lets the model use skills (`SKILLS_MODE`). */
export const SKILL_MODES = ['prefilter', 'model', 'hybrid'] as const;
/** A skills mode: `prefilter` injects the selected skills; `model` lists an index the model loads from; `hybrid` both. */
export type SkillMode = (typeof SKILL_MODES)[number];

/** Reply of `skills.select`. */
export const SelectResultSchema = Type.Object({
  active: Type.Array(ActiveSkillSchema),
  /** The deployment's skills mode. */
  mode: Type.Optional(Type.Union(SKILL_MODES.map((value) => Type.Literal(value)))),
  /**
   * In `model` and `hybrid` mode: the `<available_skills>` index (name and one-line description of the
   * skills not already active, ranked by relevance to the message and cut to `SKILLS_INDEX_MAX_TOKENS`).
   */
  index: Type.Optional(Type.String()),
  /** Names the index lists, in order. */
  indexed: Type.Optional(Type.Array(Type.String())),
  /**
   * Skills that scored above zero, were vetoed or were mentioned, with their outcome: active ones first, then
   * by score. Capped (default 20) so a message matching thousands of skills stays cheap; see `consideredTotal`.
   */
  considered: Type.Array(ConsideredSkillSchema),
  /** How many skills were considered in all, including those beyond the reported list. */
  consideredTotal: Type.Integer({ minimum: 0 }),
  tokensUsed: Type.Integer(),
  /** All active injection blocks joined, ready for the system prompt. */
  injection: Type.String(),
  durationMs: Type.Number(),
});
/** A selection result. */
export type SelectResult = Static<typeof SelectResultSchema>;

/** An active skill as far as attenuation needs to know it. */
export const AttenuationSkillSchema = Type.Object({
  name: Type.String(),
  trust: SkillTrustSchema,
  allowedTools: Type.Optional(Type.Array(Type.String())),
});
/** An active skill for attenuation. */
export type AttenuationSkill = Static<typeof AttenuationSkillSchema>;

/** Request of `skills.attenuate`. */
export const AttenuateRequestSchema = Type.Object({
  activeSkills: Type.Array(AttenuationSkillSchema),
  tools: Type.Array(ToolDefinitionSchema),
});
/** An attenuation request. */
export type AttenuateRequest = Static<typeof AttenuateRequestSchema>;

/**
 * The tool ceiling for a turn: `all` keeps every tool; `read_only` keeps only `allowed`.
 * The orchestrator re-checks every dispatch against it.
 */
export const ToolCeilingSchema = Type.Object({
  mode: Type.Union([Type.Literal('all'), Type.Literal('read_only')]),
  allowed: Type.Array(Type.String()),
  /** The installed skills that caused a read-only ceiling. */
  causedBy: Type.Array(Type.String()),
});
/** A tool ceiling. */
export type ToolCeiling = Static<typeof ToolCeilingSchema>;

/** Reply of `skills.attenuate`. */
export const AttenuateResultSchema = Type.Object({
  kept: Type.Array(ToolDefinitionSchema),
  removed: Type.Array(Type.Object({ name: Type.String(), reason: Type.String() })),
  explanation: Type.String(),
  ceiling: ToolCeilingSchema,
});
/** An attenuation result. */
export type AttenuateResult = Static<typeof AttenuateResultSchema>;

/** Request of `skills.list`. */
export const SkillListRequestSchema = Type.Object({
  includeGatedOut: Type.Optional(Type.Boolean({ description: 'default true' })),
  trust: Type.Optional(SkillTrustSchema),
});
/** A list request. */
export type SkillListRequest = Static<typeof SkillListRequestSchema>;

/** Reply of `skills.list`. */
export const SkillListResultSchema = Type.Object({
  skills: Type.Array(SkillSummarySchema),
  rejected: Type.Array(SkillRejectionSchema),
  shadowed: Type.Array(ShadowedSkillSchema),
  generation: Type.Integer(),
});
/** A list result. */
export type SkillListResult = Static<typeof SkillListResultSchema>;

/** Request of `skills.search`. */
export const SkillSearchRequestSchema = Type.Object({
  query: Type.String({ minLength: 1, maxLength: 1000 }),
  limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 100 })),
});
/** A search request. */
export type SkillSearchRequest = Static<typeof SkillSearchRequestSchema>;

/** One search hit. */
export const SkillSearchHitSchema = Type.Object({
  skill: SkillSummarySchema,
  score: Type.Number(),
  reasons: Type.Array(Type.String()),
});
/** A search hit. */
export type SkillSearchHit = Static<typeof SkillSearchHitSchema>;

/** Reply of `skills.search`, best first. */
export const SkillSearchResultSchema = Type.Object({ hits: Type.Array(SkillSearchHitSchema) });
/** A search result. */
export type SkillSearchResult = Static<typeof SkillSearchResultSchema>;

/** Where to install a skill from. */
export const SkillInstallSourceSchema = Type.Union([
  Type.Object({ kind: Type.Literal('registry'), name: Type.String() }),
  Type.Object({
    kind: Type.Literal('url'),
    url: Type.String(),
    sha256: Type.Optional(Type.String({ pattern: '^[a-f0-9]{64}$' })),
  }),
  Type.Object({
    kind: Type.Literal('path'),
    path: Type.String(),
    sha256: Type.Optional(Type.String({ pattern: '^[a-f0-9]{64}$' })),
  }),
]);
/** An install source. */
export type SkillInstallSource = Static<typeof SkillInstallSourceSchema>;

/** Request of `skills.install`. */
export const SkillInstallRequestSchema = Type.Object({
  source: SkillInstallSourceSchema,
  /** Replace an installed skill of the same name. Default false. */
  replace: Type.Optional(Type.Boolean()),
});
/** An install request. */
export type SkillInstallRequest = Static<typeof SkillInstallRequestSchema>;

/** Reply of `skills.install`. */
export const SkillInstallResultSchema = Type.Object({
  name: Type.String(),
  version: Type.String(),
  path: Type.String(),
  sha256: Type.String(),
  trust: Type.Literal('INSTALLED'),
  replaced: Type.Boolean(),
});
/** An install result. */
export type SkillInstallResult = Static<typeof SkillInstallResultSchema>;

/** Request of `skills.remove`. */
export const SkillRemoveRequestSchema = Type.Object({ name: Type.String() });
/** A remove request. */
export type SkillRemoveRequest = Static<typeof SkillRemoveRequestSchema>;

/** Reply of `skills.remove`. */
export const SkillRemoveResultSchema = Type.Object({ name: Type.String(), removed: Type.Boolean() });
/** A remove result. */
export type SkillRemoveResult = Static<typeof SkillRemoveResultSchema>;

/** An entry of `registry/skills/*.json`: what the skill is and where its SKILL.md comes from. */
export const SkillRegistryEntrySchema = Type.Object({
  name: Type.String({ pattern: '^[a-z0-9](?:[a-z0-9]|-(?!-))*$', maxLength: 64 }),
  version: Type.String(),
  description: Type.String({ maxLength: 1024 }),
  keywords: Type.Optional(Type.Array(Type.String())),
  /** `url` is http(s); `path` is relative to the entry file's folder. */
  source: Type.Union([Type.Object({ url: Type.String() }), Type.Object({ path: Type.String() })]),
  sha256: Type.String({ pattern: '^[a-f0-9]{64}$', description: 'sha256 of the SKILL.md bytes' }),
});
/** A registry entry. */
export type SkillRegistryEntry = Static<typeof SkillRegistryEntrySchema>;

/** Trigger routes across all eligible skills, so the orchestrator can route commands and schedule crons. */
export const SkillTriggerTableSchema = Type.Object({
  commands: Type.Array(Type.Object({ command: Type.String(), skill: Type.String() })),
  schedules: Type.Array(
    Type.Object({
      cron: Type.String(),
      timezone: Type.Optional(Type.String()),
      skill: Type.String(),
      nextRun: Type.Optional(Type.String()),
    }),
  ),
  webhooks: Type.Array(Type.Object({ event: Type.String(), skill: Type.String() })),
  manual: Type.Array(Type.String()),
  /** Triggers that were dropped (bad cron, duplicate command) with the reason. */
  invalid: Type.Array(Type.Object({ skill: Type.String(), trigger: Type.String(), reason: Type.String() })),
});
/** The trigger table. */
export type SkillTriggerTable = Static<typeof SkillTriggerTableSchema>;

/** Request of `skills.load` (the `skill_load` tool). */
export const SkillLoadRequestSchema = Type.Object({
  name: Type.String({ minLength: 1, maxLength: 64 }),
  /** Values for the skill's declared parameters. */
  parameters: Type.Optional(Type.Record(Type.String(), Type.Unknown())),
});
/** A skill load request. */
export type SkillLoadRequest = Static<typeof SkillLoadRequestSchema>;

/** Reply of `skills.load`: the skill as an active skill (body rendered, in its `<skill>` block) and its files. */
export const SkillLoadResultSchema = Type.Object({
  skill: ActiveSkillSchema,
  /** Files of the skill folder other than SKILL.md, relative paths, for `skill_read_file`. */
  files: Type.Array(Type.String()),
  /** More files exist than are listed. */
  filesTruncated: Type.Boolean(),
});
/** A skill load result. */
export type SkillLoadResult = Static<typeof SkillLoadResultSchema>;

/** Request of `skills.readFile` (the `skill_read_file` tool). */
export const SkillReadFileRequestSchema = Type.Object({
  name: Type.String({ minLength: 1, maxLength: 64 }),
  path: Type.String({ minLength: 1, maxLength: 1024, description: 'relative to the skill folder' }),
});
/** A skill file request. */
export type SkillReadFileRequest = Static<typeof SkillReadFileRequestSchema>;

/** Reply of `skills.readFile`: UTF-8 text, cut at the size cap. */
export const SkillReadFileResultSchema = Type.Object({
  name: Type.String(),
  path: Type.String(),
  content: Type.String(),
  bytes: Type.Integer({ minimum: 0 }),
  truncated: Type.Boolean(),
  trust: SkillTrustSchema,
});
/** A skill file. */
export type SkillReadFileResult = Static<typeof SkillReadFileResultSchema>;
