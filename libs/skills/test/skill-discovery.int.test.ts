import { afterEach, beforeEach, describe, expect, it } from '@jest/globals';
import { cp, mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  discoverSkills,
  SkillSelector,
  SkillWatcher,
  toDiscoveryReport,
  type SkillSnapshot,
} from '../src/index.js';

const PRECEDENCE = join(dirname(fileURLToPath(import.meta.url)), 'fixtures', 'precedence');

let work: string;
let dirs: { workspace: string; user: string; installed: string };

beforeEach(async () => {
  work = await mkdtemp(join(tmpdir(), 'talon-skill-discovery-'));
  await cp(PRECEDENCE, work, { recursive: true });
  dirs = { workspace: join(work, 'workspace'), user: join(work, 'user'), installed: join(work, 'installed') };
});

afterEach(async () => {
  await rm(work, { recursive: true, force: true });
});

const skillText = (name: string, keyword: string, body = `Body of ${name}.`) =>
  `---\nname: ${name}\ndescription: Skill ${name}.\nactivation:\n  keywords: [${keyword}]\n---\n${body}\n`;

describe('discoverSkills', () => {
  it('lets the first directory win a name, lists the others as shadowed, and assigns trust by directory', async () => {
    const snapshot = await discoverSkills({ dirs });
    const shared = snapshot.skills.find((s) => s.name === 'shared-skill')!;
    expect([shared.source, shared.trust, shared.version]).toEqual(['workspace', 'TRUSTED', 'workspace']);
    expect(snapshot.skills.find((s) => s.name === 'user-only')).toMatchObject({
      source: 'user',
      trust: 'TRUSTED',
    });
    expect(snapshot.skills.find((s) => s.name === 'installed-only')).toMatchObject({
      source: 'installed',
      trust: 'INSTALLED',
    });
    expect(
      snapshot.shadowed.map((s) => [
        s.source,
        s.shadowedBy.endsWith(join('workspace', 'shared-skill', 'SKILL.md')),
      ]),
    ).toEqual([
      ['user', true],
      ['installed', true],
    ]);
    const report = toDiscoveryReport(snapshot);
    expect(report.dirs.map((d) => [d.source, d.exists])).toEqual([
      ['workspace', true],
      ['user', true],
      ['installed', true],
    ]);
    expect(JSON.parse(JSON.stringify(report)).skills).toHaveLength(3);
  });

  it('skips missing directories without failing', async () => {
    const snapshot = await discoverSkills({
      dirs: { workspace: join(work, 'nope'), installed: dirs.installed },
    });
    expect(snapshot.dirs).toEqual([
      { source: 'workspace', path: join(work, 'nope'), exists: false },
      { source: 'installed', path: dirs.installed, exists: true },
    ]);
    expect(snapshot.skills.find((s) => s.name === 'shared-skill')!.trust).toBe('INSTALLED');
  });
});

describe('SkillWatcher', () => {
  let watcher: SkillWatcher | undefined;
  afterEach(async () => {
    await watcher?.close();
    watcher = undefined;
  });

  /** Resolves with the first snapshot that satisfies the predicate. */
  function nextSnapshot(
    w: SkillWatcher,
    predicate: (s: SkillSnapshot) => boolean,
    timeoutMs = 10_000,
  ): Promise<SkillSnapshot> {
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        off();
        reject(new Error('no matching snapshot in time'));
      }, timeoutMs);
      const off = w.onSnapshot((snapshot) => {
        if (!predicate(snapshot)) return;
        clearTimeout(timer);
        off();
        resolve(snapshot);
      });
    });
  }

  it('applies additions, edits, removals and shadowing changes without a restart', async () => {
    watcher = new SkillWatcher({ dirs, debounceMs: 50, missingDirPollMs: 100 });
    const first = await watcher.start();
    expect(first.generation).toBe(0);

    const added = nextSnapshot(watcher, (s) => s.skills.some((k) => k.name === 'hot-added'));
    await mkdir(join(dirs.user, 'hot-added'));
    await writeFile(join(dirs.user, 'hot-added', 'SKILL.md'), skillText('hot-added', 'zebra'));
    const afterAdd = await added;
    expect(afterAdd.generation).toBeGreaterThan(0);
    expect(new SkillSelector(afterAdd.skills).select('a zebra').active.map((s) => s.name)).toEqual([
      'hot-added',
    ]);

    const edited = nextSnapshot(
      watcher,
      (s) => s.skills.find((k) => k.name === 'hot-added')?.activation.keywords[0] === 'giraffe',
    );
    await writeFile(join(dirs.user, 'hot-added', 'SKILL.md'), skillText('hot-added', 'giraffe'));
    const afterEdit = await edited;
    expect(new SkillSelector(afterEdit.skills).select('a zebra').active).toEqual([]);

    const broken = nextSnapshot(watcher, (s) => s.rejected.some((r) => r.name === 'hot-added'));
    await writeFile(
      join(dirs.user, 'hot-added', 'SKILL.md'),
      '---\nname: hot-added\ndescription: [unclosed\n---\nx\n',
    );
    expect((await broken).rejected.find((r) => r.name === 'hot-added')!.reason).toBe('bad_yaml');

    const unshadowed = nextSnapshot(
      watcher,
      (s) => s.skills.find((k) => k.name === 'shared-skill')?.source === 'user',
    );
    await rm(join(dirs.workspace, 'shared-skill'), { recursive: true });
    const afterRemove = await unshadowed;
    expect(afterRemove.shadowed.map((s) => s.source)).toEqual(['installed']);
    expect(watcher.current().generation).toBe(afterRemove.generation);
  }, 30_000);

  it('picks up a skills directory that appears after start', async () => {
    const late = join(work, 'late');
    watcher = new SkillWatcher({ dirs: { workspace: late }, debounceMs: 50, missingDirPollMs: 100 });
    expect((await watcher.start()).skills).toEqual([]);
    const appeared = nextSnapshot(watcher, (s) => s.skills.some((k) => k.name === 'late-skill'));
    await mkdir(join(late, 'late-skill'), { recursive: true });
    await writeFile(join(late, 'late-skill', 'SKILL.md'), skillText('late-skill', 'latecomer'));
    expect((await appeared).dirs[0]!.exists).toBe(true);
  }, 30_000);
});
