import { accessSync, constants, statSync } from 'node:fs';
import { delimiter, join } from 'node:path';
import type { SkillGating } from '@talon/contracts';
import type { SkillRequirements } from './parsed-skill.js';

/** Options of gating; every field defaults to the current process. */
export interface GatingOptions {
  /** Environment used for PATH and `env` requirements. Default `process.env`. */
  env?: Record<string, string | undefined>;
  /** Platform compared with `os` requirements. Default `process.platform`. */
  platform?: string;
  /**
   * The deployment's skill settings that `requires.config` keys are looked up in (dotted paths such as
   * `browser.enabled`, OpenClaw's meaning); a key holds when its value is truthy. Default: no settings.
   */
  settings?: Record<string, unknown>;
  /** Names of the configured MCP servers that `requires.mcp` is checked against. Default: none. */
  mcpServers?: readonly string[];
}

/** Looks executables up on PATH, caching answers for the life of the lookup (one discovery run). */
export class BinaryLookup {
  private readonly cache = new Map<string, boolean>();
  private readonly dirs: string[];
  private readonly extensions: string[];

  constructor(env: Record<string, string | undefined> = process.env, platform: string = process.platform) {
    this.dirs = (env['PATH'] ?? env['Path'] ?? '').split(delimiter).filter(Boolean);
    this.extensions =
      platform === 'win32' ? (env['PATHEXT'] ?? '.EXE;.CMD;.BAT').split(';').concat('') : [''];
  }

  /** True when an executable regular file of that name is in a PATH directory. */
  has(bin: string): boolean {
    const cached = this.cache.get(bin);
    if (cached !== undefined) return cached;
    // A name with a separator is not a PATH lookup; refuse rather than probe arbitrary paths.
    const found =
      !/[\\/]/.test(bin) &&
      bin.length > 0 &&
      this.dirs.some((dir) => this.extensions.some((ext) => isExecutable(join(dir, bin + ext))));
    this.cache.set(bin, found);
    return found;
  }
}

function isExecutable(path: string): boolean {
  try {
    if (!statSync(path).isFile()) return false;
    accessSync(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/** Checks a skill's requirements against this host; every unmet requirement becomes one reason. */
export function evaluateGating(
  requires: SkillRequirements,
  options: GatingOptions = {},
  lookup?: BinaryLookup,
): SkillGating {
  const env = options.env ?? process.env;
  const platform = options.platform ?? process.platform;
  const bins = lookup ?? new BinaryLookup(env, platform);
  const reasons: string[] = [];
  if (requires.os.length > 0 && !requires.os.includes(platform))
    reasons.push(`runs only on ${requires.os.join(', ')} (this host is ${platform})`);
  for (const bin of requires.bins) if (!bins.has(bin)) reasons.push(`binary "${bin}" is not on PATH`);
  if (requires.anyBins.length > 0 && !requires.anyBins.some((bin) => bins.has(bin))) {
    reasons.push(`none of the binaries ${requires.anyBins.map((bin) => `"${bin}"`).join(', ')} is on PATH`);
  }
  for (const name of requires.env) if (!env[name]) reasons.push(`environment variable ${name} is not set`);
  for (const key of requires.config)
    if (!isTruthy(settingAt(options.settings, key))) reasons.push(`config key ${key} is not set`);
  const servers = new Set(options.mcpServers ?? []);
  for (const server of requires.mcp)
    if (!servers.has(server)) reasons.push(`MCP server "${server}" is not configured`);
  return { eligible: reasons.length === 0, reasons };
}

/**
 * Gates skills on other skills (`requires.skills`): a skill whose required skill is missing or itself gated
 * out is gated out too, repeated until nothing changes (so chains and cycles of unavailable skills settle).
 * Mutates the gating of the skills it is given.
 */
export function gateOnSkills(
  skills: ReadonlyArray<{ name: string; requires: SkillRequirements; gating: SkillGating }>,
): void {
  const byName = new Map(skills.map((skill) => [skill.name, skill]));
  let changed = true;
  while (changed) {
    changed = false;
    for (const skill of skills) {
      if (!skill.gating.eligible) continue;
      for (const needed of skill.requires.skills) {
        const other = byName.get(needed);
        if (other?.gating.eligible) continue;
        skill.gating = {
          eligible: false,
          reasons: [
            ...skill.gating.reasons,
            other ? `required skill "${needed}" is gated out` : `required skill "${needed}" is not loaded`,
          ],
        };
        changed = true;
        break;
      }
    }
  }
}

/** The value at a dotted path (`a.b.c`) of a settings object; a key containing dots is also tried whole. */
function settingAt(settings: Record<string, unknown> | undefined, key: string): unknown {
  if (!settings) return undefined;
  if (Object.hasOwn(settings, key)) return settings[key];
  let value: unknown = settings;
  for (const part of key.split('.')) {
    if (typeof value !== 'object' || value === null || !Object.hasOwn(value, part)) return undefined;
    value = (value as Record<string, unknown>)[part];
  }
  return value;
}

/** JavaScript truthiness, except that the strings "false", "0", "no" and "off" are false too. */
function isTruthy(value: unknown): boolean {
  if (typeof value === 'string') return !['', 'false', '0', 'no', 'off'].includes(value.trim().toLowerCase());
  return Boolean(value);
}
