import { createHash, randomBytes } from 'node:crypto';
import { mkdir, readFile, readdir, rename, rm, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import type { InstalledSkillRecord } from '@talon/contracts';
import type { RecordBucket, RecordChange } from '@talon/shared-state';
import type { SkillSharing } from './skill-catalog.js';
import { isValidSkillName } from './skill-name-rules.js';
import { isInside } from './skill-parser.js';

/** What the sync needs. */
export interface InstalledSkillsSyncOptions {
  /** Installed skills of every replica (JetStream KV `talon_skills` in a deployment). */
  records: RecordBucket<InstalledSkillRecord>;
  /** This replica's installed-skills folder, a cache of `records`. */
  installedDir: string;
  /** Re-runs discovery after the folder changed. */
  refresh: () => Promise<unknown>;
  log: (level: 'info' | 'warn', message: string, fields: Record<string, unknown>) => void;
}

/** What `.install.json` holds; `shared` marks a folder that mirrors a shared record. */
interface InstallMarker {
  source: string;
  sha256: string;
  installedAt: string;
  shared?: boolean;
}

/**
 * Keeps the installed-skills folder of every skill-service equal to the shared records: a skill installed
 * on one replica is published, every other replica writes its folder (atomically) and re-discovers; a
 * removal deletes it everywhere. A record whose text does not hash to its sha256 is refused
 * (INTEGRITY_MISMATCH in the log), never written. At start, a folder installed before sharing is
 * published, and a folder that mirrored a record removed meanwhile is deleted.
 */
export class InstalledSkillsSync implements SkillSharing {
  private unlisten?: () => void;
  private applying: Promise<void> = Promise.resolve();

  constructor(private readonly options: InstalledSkillsSyncOptions) {}

  async start(): Promise<void> {
    const root = resolve(this.options.installedDir);
    await mkdir(root, { recursive: true });
    for (const name of await this.localSkills()) {
      const marker = await this.marker(name);
      if (this.options.records.get(name)) continue;
      if (marker?.shared) await rm(join(root, name), { recursive: true, force: true });
      else await this.publish(name);
    }
    for (const record of this.options.records.entries().values()) await this.write(record);
    this.unlisten = this.options.records.onChange((change) => this.follow(change));
    await this.options.refresh();
  }

  async stop(): Promise<void> {
    this.unlisten?.();
    await this.applying;
  }

  /** Shares a skill just installed here (its folder holds SKILL.md and `.install.json`). */
  async publish(name: string): Promise<void> {
    const folder = join(resolve(this.options.installedDir), name);
    const text = await readFile(join(folder, 'SKILL.md'), 'utf8');
    const marker = (await this.marker(name)) ?? { source: 'local', installedAt: new Date().toISOString() };
    const record: InstalledSkillRecord = {
      name,
      sha256: createHash('sha256').update(text).digest('hex'),
      source: marker.source,
      installed_at: marker.installedAt,
      skill_md: text,
    };
    await this.options.records.put(name, record);
    await this.writeMarker(folder, record);
  }

  /** Stops sharing a skill removed here; resolves whether a shared record existed. */
  async withdraw(name: string): Promise<boolean> {
    const existed = this.options.records.get(name) !== undefined;
    await this.options.records.delete(name);
    return existed;
  }

  private follow(change: RecordChange<InstalledSkillRecord>): void {
    this.applying = this.applying.then(async () => {
      try {
        if (change.kind === 'put') await this.write(change.value);
        else await this.erase(change.key);
        await this.options.refresh();
      } catch (error) {
        this.options.log('warn', 'shared skill not applied', { name: change.key, error: String(error) });
      }
    });
  }

  /** Writes a record's folder unless it already holds that text. */
  private async write(record: InstalledSkillRecord): Promise<void> {
    const root = resolve(this.options.installedDir);
    const target = join(root, record.name);
    if (!isValidSkillName(record.name) || !isInside(root, target) || target === root) {
      this.options.log('warn', 'shared skill refused', { name: record.name, code: 'NAME_CONFLICT' });
      return;
    }
    const actual = createHash('sha256').update(record.skill_md).digest('hex');
    if (actual !== record.sha256) {
      this.options.log('warn', 'shared skill refused', {
        name: record.name,
        code: 'INTEGRITY_MISMATCH',
        expected: record.sha256,
        actual,
      });
      return;
    }
    if ((await this.marker(record.name))?.sha256 === record.sha256) return;
    const staging = join(root, `.staging-${record.name}-${randomBytes(6).toString('hex')}`);
    await mkdir(staging);
    try {
      await writeFile(join(staging, 'SKILL.md'), record.skill_md);
      await this.writeMarker(staging, record);
      const old = join(root, `.old-${record.name}-${randomBytes(6).toString('hex')}`);
      const replaced = await rename(target, old).then(
        () => true,
        () => false,
      );
      await rename(staging, target);
      if (replaced) await rm(old, { recursive: true, force: true });
    } catch (error) {
      await rm(staging, { recursive: true, force: true });
      throw error;
    }
  }

  private async erase(name: string): Promise<void> {
    const root = resolve(this.options.installedDir);
    const target = join(root, name);
    if (!isValidSkillName(name) || !isInside(root, target) || target === root) return;
    await rm(target, { recursive: true, force: true });
  }

  private async writeMarker(folder: string, record: InstalledSkillRecord): Promise<void> {
    const marker: InstallMarker = {
      source: record.source,
      sha256: record.sha256,
      installedAt: record.installed_at,
      shared: true,
    };
    const temporary = join(folder, `.install.json.${randomBytes(6).toString('hex')}.tmp`);
    await writeFile(temporary, JSON.stringify(marker, null, 2));
    await rename(temporary, join(folder, '.install.json'));
  }

  private async marker(name: string): Promise<InstallMarker | undefined> {
    try {
      const path = join(resolve(this.options.installedDir), name, '.install.json');
      return JSON.parse(await readFile(path, 'utf8')) as InstallMarker;
    } catch {
      return undefined;
    }
  }

  private async localSkills(): Promise<string[]> {
    const entries = await readdir(resolve(this.options.installedDir), { withFileTypes: true });
    return entries.filter((entry) => entry.isDirectory() && !entry.name.startsWith('.')).map((entry) => entry.name);
  }
}
