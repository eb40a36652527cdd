import { accessSync, constants, statSync } from 'node:fs';
import { homedir } from 'node:os';
import { delimiter, isAbsolute, join, resolve } from 'node:path';
import type { SkillGating } from '@talon/contracts';
import type { SkillRequirements } from './parsed-skill.js';

/** Options of gating; every field defaults to the current process. */
export interface GatingOptions {
  /** Environment used for PATH and `env` requirements. Default `process.env`. */
  env?: Record<string, string | undefined>;
  /** Platform compared with `os` requirements. Default `process.platform`. */
  platform?: string;
  /** Base of relative `config` paths. Default `process.cwd()`. */
  configBaseDir?: string;
  /** Home used for `~/` in `config` paths. Default `os.homedir()`. */
  homeDir?: string;
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
  for (const file of requires.config) {
    const path = resolveConfigPath(file, options);
    if (!exists(path)) reasons.push(`config file ${file} is missing`);
  }
  return { eligible: reasons.length === 0, reasons };
}

function resolveConfigPath(file: string, options: GatingOptions): string {
  if (file === '~' || file.startsWith('~/')) return join(options.homeDir ?? homedir(), file.slice(1));
  return isAbsolute(file) ? file : resolve(options.configBaseDir ?? process.cwd(), file);
}

function exists(path: string): boolean {
  try {
    statSync(path);
    return true;
  } catch {
    return false;
  }
}
