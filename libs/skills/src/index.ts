// Parsing
export {
  parseSkillText,
  readSkillFile,
  MAX_SKILL_FILE_BYTES,
  MAX_DESCRIPTION_LENGTH,
  type SkillTextOrigin,
  type ReadSkillFileOptions,
} from './skill-parser.js';
export type { ParsedSkill, SkillActivation, SkillRequirements } from './parsed-skill.js';
export type { SkillParseResult } from './skill-rejection.js';
export { SKILL_DIALECTS, type SkillDialect } from './skill-dialects.js';
export { skillNameProblem, isValidSkillName, MAX_SKILL_NAME_LENGTH } from './skill-name-rules.js';
export { MAX_KEYWORDS, MAX_PATTERNS, MAX_TAGS, MIN_TERM_WEIGHT } from './skill-terms.js';
export { termWeight, containsCjk, cjkBigrams, foldText } from './cjk-text.js';
export {
  guardPattern,
  testGuarded,
  MAX_PATTERN_LENGTH,
  DEFAULT_MATCH_INPUT_CAP,
  type GuardedPattern,
  type PatternProblem,
} from './regex-guard.js';

// Discovery, gating, watching
export {
  discoverSkills,
  toSkillSummary,
  toDiscoveryReport,
  type SkillDirectories,
  type DiscoveryOptions,
  type SkillSnapshot,
} from './skill-discovery.js';
export type { LoadedSkill } from './loaded-skill.js';
export { evaluateGating, BinaryLookup, type GatingOptions } from './skill-gating.js';
export {
  SkillWatcher,
  DEFAULT_WATCH_DEBOUNCE_MS,
  type SkillWatcherOptions,
  type SnapshotListener,
} from './skill-watcher.js';
export { parseSkillsConfig, type SkillsConfig } from './skills-config.js';

// Selection and injection
export { SELECTION_SCORES } from './selection-scores.js';
export {
  SkillSelector,
  costOf,
  DEFAULT_MAX_ACTIVE,
  DEFAULT_MAX_CONTEXT_TOKENS,
  DEFAULT_SIMILARITY_THRESHOLD,
  type SkillSelectorOptions,
  type SelectOptions,
} from './skill-selector.js';
export { TfidfIndex, tfidfTerms, type TfidfDocument, type TfidfHit } from './tfidf-index.js';
export {
  buildSkillInjection,
  escapeSkillBody,
  escapeAttribute,
  INSTALLED_SKILL_NOTICE,
  type InjectableSkill,
} from './skill-injection.js';
export {
  renderSkillBody,
  detectTemplateDialect,
  compileJinja,
  SKILL_TEMPLATE_DIALECTS,
  type SkillTemplateDialect,
  type RenderSkillBodyOptions,
} from './skill-body-template.js';
export {
  JinjaTemplate,
  DEFAULT_JINJA_LIMITS,
  JINJA_FILTERS,
  JINJA_FUNCTIONS,
  JINJA_METHODS,
  type JinjaLimits,
} from './jinja-sandbox.js';
export {
  fillSkillParameters,
  SKILL_PARAMETER_SOURCES,
  type SkillParameterSource,
  type SkillParameterInput,
  type FilledSkillParameters,
  type ParameterizedSkill,
} from './skill-parameters.js';
export { parseCommandArguments, MAX_COMMAND_ARGUMENTS, type CommandArguments } from './command-arguments.js';
export { readDeclaredTools } from './skill-tool-declarations.js';
export {
  resolveSkillTools,
  gateSelectionByTools,
  NO_INSTALLABLE_TOOLS,
  type InstallableTools,
  type ToolOffer,
  type SkillToolResolution,
} from './skill-tool-resolution.js';
export {
  mcpServersToStart,
  SKILL_MCP_AUTOSTART_MODES,
  type McpServerStart,
  type SkillMcpAutostart,
} from './skill-mcp-autostart.js';
export { capSkillBody, CHARS_PER_TOKEN } from './skill-body-cap.js';
export { Bm25Index, bm25Terms, MAX_QUERY_TERMS, type Bm25Document, type Bm25Hit } from './bm25-index.js';
export { inflectionStem } from './word-inflection.js';
export {
  buildSkillIndexPrompt,
  estimateTokens,
  oneLineDescription,
  DEFAULT_INDEX_MAX_TOKENS,
  INDEX_LINE_MAX_CHARS,
  type SkillIndexEntry,
  type SkillIndexPrompt,
} from './skill-index-prompt.js';

// Attenuation
export {
  attenuateTools,
  isToolAllowed,
  toolCeilingFor,
  READ_ONLY_TOOL_WHITELIST,
} from './tool-attenuation.js';

// Skill tools: search, install, remove, triggers
export { SkillSearch, DEFAULT_SEARCH_LIMIT } from './skill-search.js';
export {
  installSkill,
  removeSkill,
  readRegistryEntry,
  DEFAULT_FETCH_TIMEOUT_MS,
  type SkillInstallerOptions,
} from './skill-installer.js';
export { collectTriggers, skillForCommand } from './skill-triggers.js';

export {
  listSkillFiles,
  readSkillTextFile,
  MAX_LISTED_SKILL_FILES,
  MAX_SKILL_FILE_READ_BYTES,
} from './skill-files.js';

// Errors
export { SkillPathEscapeError, SkillFileNotTextError } from './skill-file-errors.js';
export { SkillIntegrityError } from './skill-integrity-error.js';
export { SkillSourceError } from './skill-source-error.js';
export { SkillRejectedError } from './skill-rejected-error.js';
export { SkillNameConflictError } from './skill-name-conflict-error.js';
export { SkillParameterError } from './skill-parameter-error.js';
export { SkillTemplateError } from './skill-template-error.js';
export {
  SkillTemplateLimitError,
  SKILL_TEMPLATE_LIMITS,
  type SkillTemplateLimit,
} from './skill-template-limit-error.js';

// One object serving every skills.* call
export { SkillCatalog, type SkillCatalogOptions, type SkillSharing } from './skill-catalog.js';
export { InstalledSkillsSync, type InstalledSkillsSyncOptions } from './installed-skills-sync.js';
