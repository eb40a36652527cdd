import type { SkillDialect } from './skill-dialects.js';
import type { SkillParameter, SkillToolDeclaration, SkillTrigger } from '@talon/contracts';
import type { SkillTemplateDialect } from './skill-body-template.js';
import type { GuardedPattern } from './regex-guard.js';

/** What a skill needs from the host before it may be used (all lists may be empty). */
export interface SkillRequirements {
  /** Every one of these executables must be on PATH. */
  bins: string[];
  /** At least one of these executables must be on PATH (when the list is not empty). */
  anyBins: string[];
  /** Every one of these environment variables must be set and non-empty. */
  env: string[];
  /** Every one of these configuration keys (dotted paths into the skills settings) must be truthy. */
  config: string[];
  /** The skill works only on these platforms (`process.platform` values); empty means any. */
  os: string[];
  /** Every one of these skills must be loaded and available. */
  skills: string[];
  /** Every one of these MCP servers must be configured. */
  mcp: string[];
}

/** When a skill activates by itself. */
export interface SkillActivation {
  /** Folded (NFKC, lowercase) keywords, at most 20. */
  keywords: string[];
  /** Folded keywords any of which vetoes the skill. */
  excludeKeywords: string[];
  /** Guarded regexes, at most 5. */
  patterns: GuardedPattern[];
  /** Folded tags, at most 10 (activation tags and workflow tags together). */
  tags: string[];
  /** Declared prompt cost; when absent the cost is body length / 4. */
  maxContextTokens?: number;
}

/** One SKILL.md in every dialect, normalised. */
export interface ParsedSkill {
  name: string;
  version: string;
  description: string;
  license?: string;
  compatibility?: string;
  /** `metadata` as an object (JSON5 strings already parsed). */
  metadata: Record<string, unknown>;
  /** Tool names from `allowed-tools` (spec) or `tools` (workflow). */
  allowedTools: string[];
  /** The tools of `tools:` (workflow), each required unless marked optional. */
  declaredTools: SkillToolDeclaration[];
  /** The tools of `allowed-tools` (spec): pre-approved while the skill is active, for Trusted skills. */
  preApprovedTools: string[];
  /** The `template: jinja | mustache` field; absent means detected from the body. */
  template?: SkillTemplateDialect;
  activation: SkillActivation;
  requires: SkillRequirements;
  parameters: SkillParameter[];
  triggers: SkillTrigger[];
  /** The markdown body, BOM removed, line endings `\n`, trimmed. */
  body: string;
  dialects: SkillDialect[];
  /** Absolute path of the SKILL.md. */
  path: string;
  /** Absolute path of the skill folder. */
  dir: string;
  /** sha256 (hex) of the file bytes. */
  sha256: string;
  /** Things the parser dropped or capped, in words. */
  warnings: string[];
}
