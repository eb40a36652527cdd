import { resolve } from 'node:path';
import type { AllowlistEntry } from '@talon/safety';
import {
  parseServiceConfig,
  parseSsrfAllowlist,
  readPositiveInt,
  type ServiceConfig,
} from '@talon/service-runtime';
import { DEFAULT_WATCH_DEBOUNCE_MS, parseSkillsConfig, type SkillsConfig } from '@talon/skills';

/** skill-service settings, read and validated once at start. */
export interface SkillServiceConfig extends ServiceConfig {
  /**
   * Skill directories, registry and selection limits (see `parseSkillsConfig`). Defaults that work from the
   * repository root: workspace `<cwd>/skills` (the bundled skills), user `~/.talon/skills`, installed
   * `<TALON_STATE_DIR>/skills` (state dir default `.talon/state`), registry `<cwd>/registry/skills`.
   */
  skills: SkillsConfig;
  /** Private ranges skill downloads may reach (env `TALON_SSRF_ALLOWLIST`). Default none. */
  ssrfAllowlist: AllowlistEntry[];
  /** Quiet time before a directory change triggers re-discovery. Default 150 ms (env `SKILLS_WATCH_DEBOUNCE_MS`). */
  watchDebounceMs: number;
}

export function parseSkillServiceConfig(
  env: NodeJS.ProcessEnv = process.env,
  cwd = process.cwd(),
): SkillServiceConfig {
  const stateDir = resolve(cwd, env.TALON_STATE_DIR || '.talon/state');
  return {
    ...parseServiceConfig('skill-service', env),
    skills: parseSkillsConfig(
      { ...env, SKILLS_INSTALLED_DIR: env.SKILLS_INSTALLED_DIR || resolve(stateDir, 'skills') },
      cwd,
    ),
    ssrfAllowlist: parseSsrfAllowlist(env.TALON_SSRF_ALLOWLIST),
    watchDebounceMs: readPositiveInt(env, 'SKILLS_WATCH_DEBOUNCE_MS', DEFAULT_WATCH_DEBOUNCE_MS),
  };
}
