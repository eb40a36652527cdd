import { randomBytes } from 'node:crypto';
import { mkdir, readFile, readdir, rename, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { ToolBuildReport } from '@talon/contracts';
import type { RegistryEntry } from '../registry-entry.js';
import type { LocatedRegistryEntry } from '../tool-package-registry.js';

/** One built version as kept on disk. */
export interface BuiltVersion {
  buildId: string;
  name: string;
  version: string;
  dir: string;
  /** The registry entry; absent for a failed build. */
  entry?: RegistryEntry;
  report: ToolBuildReport;
  approvedAt?: string;
}

const VERSION = /^(\d+)\.0\.0$/;

/**
 * Built tools under a state folder, one folder per version: `<name>/<version>/` holds the component
 * (`<name>.wasm`), its `source.js`, `capabilities.json`, the registry entry (`entry.json`, artifact url relative to
 * the folder, sha256, wit_version), the build `report.json`, and `approved.json` once a person approved it.
 * Versions count up per name (`1.0.0`, `2.0.0`…); older ones stay for rollback until the name is removed.
 */
export class BuiltToolsStore {
  constructor(private readonly root: string) {}

  /** The version the next build of `name` gets. */
  async nextVersion(name: string): Promise<string> {
    const numbers = (await this.versionNames(name)).map((version) => Number(VERSION.exec(version)![1]));
    return `${Math.max(0, ...numbers) + 1}.0.0`;
  }

  /** Writes a finished build (ready or failed). The folder is complete before it appears. */
  async stage(
    report: ToolBuildReport,
    files: {
      source: string;
      bytes?: Uint8Array;
      capabilities?: Record<string, unknown>;
      entry?: RegistryEntry;
    },
  ): Promise<string> {
    const dir = this.dir(report.name, report.version);
    // A random suffix: runners in containers all run as pid 1 and may share this folder.
    const staging = `${dir}.tmp-${randomBytes(6).toString('hex')}`;
    await mkdir(staging, { recursive: true });
    await writeFile(join(staging, 'source.js'), files.source);
    if (files.bytes) await writeFile(join(staging, `${report.name}.wasm`), files.bytes);
    if (files.capabilities)
      await writeFile(join(staging, 'capabilities.json'), `${JSON.stringify(files.capabilities, null, 2)}\n`);
    if (files.entry)
      await writeFile(join(staging, 'entry.json'), `${JSON.stringify(files.entry, null, 2)}\n`);
    await writeFile(join(staging, 'report.json'), `${JSON.stringify(report, null, 2)}\n`);
    await mkdir(join(this.root, report.name), { recursive: true });
    await rename(staging, dir);
    return dir;
  }

  /** A built version by id (`name@version`), or undefined. */
  async get(buildId: string): Promise<BuiltVersion | undefined> {
    const [name, version] = buildId.split('@');
    if (!name || !version || !VERSION.test(version)) return undefined;
    const dir = this.dir(name, version);
    try {
      const report = JSON.parse(await readFile(join(dir, 'report.json'), 'utf8')) as ToolBuildReport;
      const entry = await readFile(join(dir, 'entry.json'), 'utf8').then(
        (text) => JSON.parse(text) as RegistryEntry,
        () => undefined,
      );
      const approved = await readFile(join(dir, 'approved.json'), 'utf8').then(
        (text) => (JSON.parse(text) as { approved_at: string }).approved_at,
        () => undefined,
      );
      return {
        buildId,
        name,
        version,
        dir,
        report,
        ...(entry ? { entry } : {}),
        ...(approved ? { approvedAt: approved } : {}),
      };
    } catch {
      return undefined;
    }
  }

  /** Records a person's approval of a version. */
  async approve(buildId: string, sha256: string): Promise<void> {
    const built = await this.get(buildId);
    if (!built) return;
    await writeFile(
      join(built.dir, 'approved.json'),
      `${JSON.stringify({ approved_at: new Date().toISOString(), sha256 })}\n`,
    );
  }

  /** Approved versions of a name, newest first. */
  async approvedVersions(name: string): Promise<BuiltVersion[]> {
    const versions: BuiltVersion[] = [];
    for (const version of await this.versionNames(name)) {
      const built = await this.get(`${name}@${version}`);
      if (built?.approvedAt) versions.push(built);
    }
    return versions.sort((a, b) => Number(VERSION.exec(b.version)![1]) - Number(VERSION.exec(a.version)![1]));
  }

  /** The registry entry of a version, located in its folder, for the installer. */
  located(built: BuiltVersion): LocatedRegistryEntry {
    if (!built.entry) throw new Error(`build ${built.buildId} has no registry entry (it failed)`);
    return { entry: built.entry, baseDir: built.dir, origin: 'built' };
  }

  /** The source of a version. */
  source(built: BuiltVersion): Promise<string> {
    return readFile(join(built.dir, 'source.js'), 'utf8');
  }

  /** Forgets every version of a name. */
  async removeAll(name: string): Promise<void> {
    await rm(join(this.root, name), { recursive: true, force: true });
  }

  private dir(name: string, version: string): string {
    return join(this.root, name, version);
  }

  private async versionNames(name: string): Promise<string[]> {
    return (await readdir(join(this.root, name)).catch(() => [] as string[])).filter((entry) =>
      VERSION.test(entry),
    );
  }
}
