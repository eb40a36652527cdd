import { readFile, readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { parseBundles, parseRegistryEntry, type RegistryEntry, type ToolBundle } from './registry-entry.js';

/** A registry entry with the folder its relative paths resolve against. */
export interface LocatedRegistryEntry {
  entry: RegistryEntry;
  /** Folder of the entry file. */
  baseDir: string;
  /** `built` for a version made by the tool builder; default `registry`. */
  origin?: 'registry' | 'built';
}

/** One search result, best first. */
export interface RegistrySearchHit {
  name: string;
  display_name: string;
  version: string;
  description: string;
  tags: string[];
  auth: RegistryEntry['auth'];
  score: number;
}

/** A registry file that could not be read; the rest of the registry still loads. */
export interface RegistryProblem {
  file: string;
  reason: string;
}

function scoreEntry(entry: RegistryEntry, terms: string[]): number {
  let score = 0;
  for (const term of terms) {
    if (entry.name === term) score += 10;
    else if (entry.name.includes(term)) score += 5;
    if (entry.keywords.some((keyword) => keyword.toLowerCase() === term)) score += 4;
    if (entry.tags.some((tag) => tag.toLowerCase() === term)) score += 3;
    if (entry.display_name.toLowerCase().includes(term)) score += 2;
    if (entry.description.toLowerCase().includes(term)) score += 1;
  }
  return score;
}

/**
 * The tool registry on disk: `tools/<name>.json` entries and `_bundles.json`. Bad files are skipped and reported
 * in `problems`, never fatal. `reload()` re-reads the folder.
 */
export class ToolPackageRegistry {
  private entries = new Map<string, LocatedRegistryEntry>();
  private bundleList: ToolBundle[] = [];
  problems: RegistryProblem[] = [];

  constructor(private readonly registryDir: string) {}

  /** Reads a registry folder (the one holding `tools/` and `_bundles.json`). */
  static async open(registryDir: string): Promise<ToolPackageRegistry> {
    const registry = new ToolPackageRegistry(registryDir);
    await registry.reload();
    return registry;
  }

  async reload(): Promise<void> {
    const toolsDir = join(this.registryDir, 'tools');
    const entries = new Map<string, LocatedRegistryEntry>();
    const problems: RegistryProblem[] = [];
    const files = (
      await readdir(toolsDir).catch((error: NodeJS.ErrnoException) => {
        // A mistyped TALON_TOOL_REGISTRY_DIR leaves nothing to install; say so rather than list nothing.
        problems.push({
          file: 'tools/',
          reason: `the registry folder ${toolsDir} cannot be read (${error.code ?? String(error)}), so no tool can be installed from it; point TALON_TOOL_REGISTRY_DIR at a folder holding tools/*.json`,
        });
        return [] as string[];
      })
    )
      .filter((file) => file.endsWith('.json'))
      .sort();
    for (const file of files) {
      try {
        const entry = parseRegistryEntry(
          JSON.parse(await readFile(join(toolsDir, file), 'utf8')),
          `registry/tools/${file}`,
        );
        // One file per name, named after it: duplicates cannot hide behind another file name.
        if (file !== `${entry.name}.json`)
          throw new Error(`the entry for ${entry.name} must be in ${entry.name}.json`);
        entries.set(entry.name, { entry, baseDir: toolsDir });
      } catch (error) {
        problems.push({ file, reason: error instanceof Error ? error.message : String(error) });
      }
    }
    let bundles: ToolBundle[] = [];
    try {
      bundles = parseBundles(
        JSON.parse(await readFile(join(this.registryDir, '_bundles.json'), 'utf8')),
        'registry/_bundles.json',
      );
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT')
        problems.push({
          file: '_bundles.json',
          reason: error instanceof Error ? error.message : String(error),
        });
    }
    this.entries = entries;
    this.bundleList = bundles;
    this.problems = problems;
  }

  get(name: string): LocatedRegistryEntry | undefined {
    return this.entries.get(name);
  }

  list(): RegistryEntry[] {
    return [...this.entries.values()].map((located) => located.entry);
  }

  bundles(): ToolBundle[] {
    return this.bundleList;
  }

  /** Ranks entries by name, keyword, tag, display name and description matches; an empty query lists all. */
  search(query: string, limit = 20): RegistrySearchHit[] {
    const terms = query.toLowerCase().split(/\s+/).filter(Boolean);
    return this.list()
      .map((entry) => ({ entry, score: terms.length === 0 ? 1 : scoreEntry(entry, terms) }))
      .filter((hit) => hit.score > 0)
      .sort((a, b) => b.score - a.score || a.entry.name.localeCompare(b.entry.name))
      .slice(0, limit)
      .map(({ entry, score }) => ({
        name: entry.name,
        display_name: entry.display_name,
        version: entry.version,
        description: entry.description,
        tags: entry.tags,
        auth: entry.auth,
        score,
      }));
  }
}
