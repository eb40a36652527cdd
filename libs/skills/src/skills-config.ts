import { readFileSync } from 'node:fs';
import { homedir } from 'node:os';
import JSON5 from 'json5';
import { join, resolve } from 'node:path';
import { ERROR_CODES, SKILL_MODES, type SkillMode } from '@talon/contracts';
import { TalonError } from '@talon/errors';
import type { SkillDirectories } from './skill-discovery.js';
import { DEFAULT_INDEX_MAX_TOKENS } from './skill-index-prompt.js';
import {
  DEFAULT_MAX_ACTIVE,
  DEFAULT_MAX_CONTEXT_TOKENS,
  DEFAULT_SIMILARITY_THRESHOLD,
} from './skill-selector.js';

/** The skills configuration of a process, from its environment. */
export interface SkillsConfig {
  dirs: Required<SkillDirectories>;
  registryDir: string;
  maxActive: number;
  maxContextTokens: number;
  similarityThreshold: number;
  /** The settings `requires.config` keys are looked up in (from `SKILLS_SETTINGS_FILE`); empty when unset. */
  settings: Record<string, unknown>;
  /** How the model gets skills (`SKILLS_MODE`): `prefilter` (default), `model` or `hybrid`. */
  mode: SkillMode;
  /** Token budget of the model-mode index (`SKILLS_INDEX_MAX_TOKENS`, default 1500, 0–50000). */
  indexMaxTokens: number;
}

/**
 * Reads and validates the skills configuration:
 * - `SKILLS_WORKSPACE_DIR` (default `<WORKSPACE_DIR or cwd>/skills`), `SKILLS_DIR` (default `~/.talon/skills`),
 *   `SKILLS_INSTALLED_DIR` (default `~/.talon/installed-skills`), `SKILLS_REGISTRY_DIR` (default `<cwd>/registry/skills`);
 * - `SKILLS_MAX_ACTIVE` (default 3, 0–50), `SKILLS_MAX_CONTEXT_TOKENS` (default 4000, 0–200000),
 *   `SKILLS_SIMILARITY_THRESHOLD` (default 0.25, 0–1);
 * - `SKILLS_SETTINGS_FILE`: a JSON or JSON5 object whose (dotted) keys a skill's `requires.config` names; a
 *   key holds when its value is truthy (OpenClaw's meaning). Read once here; unset means no key holds;
 * - `SKILLS_MODE`: `prefilter` (the selector injects skills), `model` (the model sees an index and loads skills
 *   with `skill_load`; only mentions are injected) or `hybrid` (both: the index lists what was not injected);
 *   `SKILLS_INDEX_MAX_TOKENS` (default 1500) caps the index.
 * Throws one readable error naming every bad variable.
 */
export function parseSkillsConfig(
  env: Record<string, string | undefined> = process.env,
  cwd = process.cwd(),
): SkillsConfig {
  const problems: string[] = [];
  const home = env['HOME'] || homedir();
  const int = (name: string, fallback: number, min: number, max: number) => {
    const raw = env[name];
    if (raw === undefined || raw === '') return fallback;
    const value = Number(raw);
    if (!Number.isInteger(value) || value < min || value > max)
      problems.push(`${name}=${raw} must be an integer from ${min} to ${max}`);
    return value;
  };
  const threshold = env['SKILLS_SIMILARITY_THRESHOLD']
    ? Number(env['SKILLS_SIMILARITY_THRESHOLD'])
    : DEFAULT_SIMILARITY_THRESHOLD;
  if (!(threshold >= 0 && threshold <= 1))
    problems.push(
      `SKILLS_SIMILARITY_THRESHOLD=${env['SKILLS_SIMILARITY_THRESHOLD']} must be a number from 0 to 1`,
    );
  const config: SkillsConfig = {
    dirs: {
      workspace: resolve(cwd, env['SKILLS_WORKSPACE_DIR'] || join(env['WORKSPACE_DIR'] || cwd, 'skills')),
      user: resolve(cwd, env['SKILLS_DIR'] || join(home, '.talon', 'skills')),
      installed: resolve(cwd, env['SKILLS_INSTALLED_DIR'] || join(home, '.talon', 'installed-skills')),
    },
    registryDir: resolve(cwd, env['SKILLS_REGISTRY_DIR'] || join(cwd, 'registry', 'skills')),
    maxActive: int('SKILLS_MAX_ACTIVE', DEFAULT_MAX_ACTIVE, 0, 50),
    maxContextTokens: int('SKILLS_MAX_CONTEXT_TOKENS', DEFAULT_MAX_CONTEXT_TOKENS, 0, 200_000),
    similarityThreshold: threshold,
    settings: readSettings(env['SKILLS_SETTINGS_FILE'], cwd, problems),
    mode: readMode(env['SKILLS_MODE'], problems),
    indexMaxTokens: int('SKILLS_INDEX_MAX_TOKENS', DEFAULT_INDEX_MAX_TOKENS, 0, 50_000),
  };
  if (problems.length > 0)
    throw new TalonError(
      ERROR_CODES.SCHEMA_VIOLATION,
      `Invalid skills configuration: ${problems.join('; ')}.`,
      { details: { problems } },
    );
  return config;
}

function readSettings(file: string | undefined, cwd: string, problems: string[]): Record<string, unknown> {
  if (!file) return {};
  try {
    const parsed: unknown = JSON5.parse(readFileSync(resolve(cwd, file), 'utf8'));
    if (typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed))
      return parsed as Record<string, unknown>;
    problems.push(`SKILLS_SETTINGS_FILE=${file} must hold a JSON object`);
  } catch (error) {
    problems.push(`SKILLS_SETTINGS_FILE=${file} cannot be read: ${(error as Error).message.split('\n')[0]}`);
  }
  return {};
}

function readMode(raw: string | undefined, problems: string[]): SkillMode {
  if (raw === undefined || raw === '') return 'prefilter';
  if ((SKILL_MODES as readonly string[]).includes(raw)) return raw as SkillMode;
  problems.push(`SKILLS_MODE=${raw} must be one of ${SKILL_MODES.join(', ')}`);
  return 'prefilter';
}
