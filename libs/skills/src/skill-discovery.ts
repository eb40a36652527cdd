import { detectTemplateDialect } from './skill-body-template.js';
import { lstat, readdir, stat } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import type {
  DiscoveryReport,
  ShadowedSkill,
  SkillRejection,
  SkillResources,
  SkillSource,
  SkillSummary,
  SkillTrust,
} from '@talon/contracts';
import type { LoadedSkill } from './loaded-skill.js';
import { BinaryLookup, evaluateGating, gateOnSkills, type GatingOptions } from './skill-gating.js';
import { readSkillFile } from './skill-parser.js';

/** The three skill directories, in precedence order; a missing or absent one is skipped. */
export interface SkillDirectories {
  /** The workspace's skills folder (Trusted). */
  workspace?: string;
  /** The user's skills folder, `SKILLS_DIR` (Trusted). */
  user?: string;
  /** Installed skills, `SKILLS_INSTALLED_DIR` (Installed). */
  installed?: string;
}

/** Options of {@link discoverSkills}. */
export interface DiscoveryOptions extends GatingOptions {
  dirs: SkillDirectories;
  /** Stamped on the snapshot; the watcher increments it. Default 0. */
  generation?: number;
}

/** Everything one discovery run found. Immutable once returned. */
export interface SkillSnapshot {
  generation: number;
  discoveredAt: string;
  dirs: Array<{ source: SkillSource; path: string; exists: boolean }>;
  /** Winning skills, eligible or gated out, in precedence then name order. */
  skills: LoadedSkill[];
  rejected: SkillRejection[];
  shadowed: ShadowedSkill[];
}

const ORDER: Array<{ source: SkillSource; trust: SkillTrust }> = [
  { source: 'workspace', trust: 'TRUSTED' },
  { source: 'user', trust: 'TRUSTED' },
  { source: 'installed', trust: 'INSTALLED' },
];
const RESOURCE_FOLDERS = ['scripts', 'references', 'assets'] as const;
const MAX_RESOURCES_PER_FOLDER = 200;
const READ_CONCURRENCY = 32;

/**
 * Scans workspace → user → installed directories for `<name>/SKILL.md`. The first skill of a name wins;
 * later ones are listed as shadowed. Bad files are listed with their rejection; nothing here throws for
 * a bad file or a missing directory.
 */
export async function discoverSkills(options: DiscoveryOptions): Promise<SkillSnapshot> {
  const lookup = new BinaryLookup(options.env ?? process.env, options.platform ?? process.platform);
  const snapshot: SkillSnapshot = {
    generation: options.generation ?? 0,
    discoveredAt: new Date().toISOString(),
    dirs: [],
    skills: [],
    rejected: [],
    shadowed: [],
  };
  const winners = new Map<string, LoadedSkill>();
  for (const { source, trust } of ORDER) {
    const dir = options.dirs[source];
    if (!dir) continue;
    const root = resolve(dir);
    const folders = await listFolders(root);
    snapshot.dirs.push({ source, path: root, exists: folders !== undefined });
    if (!folders) continue;
    const results = await mapLimited(folders, READ_CONCURRENCY, (folder) =>
      readSkillFile(join(root, folder, 'SKILL.md'), { skillsRoot: root }),
    );
    for (const [index, result] of results.entries()) {
      if (!result.ok) {
        snapshot.rejected.push({ ...result.rejection, source });
        continue;
      }
      const skill = result.skill;
      const winner = winners.get(skill.name);
      if (winner) {
        snapshot.shadowed.push({ name: skill.name, path: skill.path, source, shadowedBy: winner.path });
        continue;
      }
      const loaded: LoadedSkill = {
        ...skill,
        trust,
        source,
        resources: await listResources(join(root, folders[index]!)),
        gating: evaluateGating(skill.requires, options, lookup),
      };
      winners.set(skill.name, loaded);
      snapshot.skills.push(loaded);
    }
  }
  gateOnSkills(snapshot.skills);
  return snapshot;
}

/** A loaded skill as listed to clients. */
export function toSkillSummary(skill: LoadedSkill): SkillSummary {
  return {
    name: skill.name,
    version: skill.version,
    description: skill.description,
    trust: skill.trust,
    source: skill.source,
    dir: skill.dir,
    keywords: skill.activation.keywords,
    tags: skill.activation.tags,
    resources: skill.resources,
    gating: skill.gating,
    triggers: skill.triggers,
    parameters: skill.parameters,
    tools: skill.declaredTools,
    preApprovedTools: skill.preApprovedTools,
    template: detectTemplateDialect(skill.body, skill.template),
    dialects: skill.dialects,
  };
}

/** A snapshot as the wire-level discovery report. */
export function toDiscoveryReport(snapshot: SkillSnapshot): DiscoveryReport {
  return {
    generation: snapshot.generation,
    discoveredAt: snapshot.discoveredAt,
    dirs: snapshot.dirs,
    skills: snapshot.skills.map(toSkillSummary),
    rejected: snapshot.rejected,
    shadowed: snapshot.shadowed,
  };
}

/** Sub-folders (or links to folders) that hold a SKILL.md entry, sorted; undefined when the dir is missing. */
async function listFolders(root: string): Promise<string[] | undefined> {
  let entries;
  try {
    entries = await readdir(root, { withFileTypes: true });
  } catch {
    return undefined;
  }
  const folders: string[] = [];
  for (const entry of entries) {
    if (entry.name.startsWith('.')) continue;
    if (!entry.isDirectory() && !entry.isSymbolicLink()) continue;
    try {
      await lstat(join(root, entry.name, 'SKILL.md'));
      folders.push(entry.name);
    } catch {
      // a folder without SKILL.md is not a skill
    }
  }
  return folders.sort();
}

async function listResources(folder: string): Promise<SkillResources> {
  const resources: SkillResources = { scripts: [], references: [], assets: [] };
  for (const kind of RESOURCE_FOLDERS) {
    const base = join(folder, kind);
    try {
      if (!(await lstat(base)).isDirectory()) continue;
    } catch {
      continue;
    }
    await walk(base, kind, resources[kind], 0);
  }
  return resources;
}

/** Lists files below `dir` without following symlinks (a link is listed by name, never entered). */
async function walk(dir: string, prefix: string, out: string[], depth: number): Promise<void> {
  if (depth > 4 || out.length >= MAX_RESOURCES_PER_FOLDER) return;
  let entries;
  try {
    entries = await readdir(dir, { withFileTypes: true });
  } catch {
    return;
  }
  for (const entry of entries.sort((a, b) => a.name.localeCompare(b.name))) {
    if (out.length >= MAX_RESOURCES_PER_FOLDER) return;
    const rel = `${prefix}/${entry.name}`;
    if (entry.isDirectory()) await walk(join(dir, entry.name), rel, out, depth + 1);
    else out.push(rel);
  }
}

async function mapLimited<T, R>(items: T[], limit: number, fn: (item: T) => Promise<R>): Promise<R[]> {
  const results = new Array<R>(items.length);
  let next = 0;
  const workers = Array.from({ length: Math.min(limit, items.length) }, async () => {
    while (next < items.length) {
      const index = next++;
      results[index] = await fn(items[index]!);
    }
  });
  await Promise.all(workers);
  return results;
}

/** Whether a path exists as a directory (used by the watcher). */
export async function isDirectory(path: string): Promise<boolean> {
  try {
    return (await stat(path)).isDirectory();
  } catch {
    return false;
  }
}
