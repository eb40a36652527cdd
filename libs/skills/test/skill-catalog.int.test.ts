import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { cp, mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { ToolDefinition } from '@talon/contracts';
import { parseSkillsConfig, SkillCatalog, isToolAllowed } from '../src/index.js';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..', '..');
let work: string;
let catalog: SkillCatalog;

const tool = (name: string): ToolDefinition => ({
  name,
  description: name,
  parameters: {},
  effects: [],
  approval: 'never',
  timeoutMs: 1000,
  domain: 'orchestrator',
  source: 'builtin',
  sensitiveParams: [],
  idempotent: true,
});

beforeAll(async () => {
  work = await mkdtemp(join(tmpdir(), 'talon-skill-catalog-'));
  await cp(join(ROOT, 'skills'), join(work, 'workspace', 'skills'), { recursive: true });
  await mkdir(join(work, 'user'));
  const config = parseSkillsConfig(
    {
      WORKSPACE_DIR: join(work, 'workspace'),
      SKILLS_DIR: join(work, 'user'),
      SKILLS_INSTALLED_DIR: join(work, 'installed'),
      SKILLS_REGISTRY_DIR: join(ROOT, 'registry', 'skills'),
      SKILLS_MAX_ACTIVE: '2',
    },
    work,
  );
  catalog = await SkillCatalog.open({ config, debounceMs: 50 });
});

afterAll(async () => {
  await catalog.close();
  await rm(work, { recursive: true, force: true });
});

describe('SkillCatalog', () => {
  it('lists, searches, selects and routes the workspace skills', () => {
    const list = catalog.list();
    expect(list.skills.map((s) => s.name)).toEqual([
      'api-testing',
      'chinese-writing',
      'code-review',
      'data-analysis',
      'incident-triage',
      'release-notes',
    ]);
    expect(list.skills.every((s) => s.trust === 'TRUSTED')).toBe(true);
    expect(catalog.search({ query: 'incident' }).hits[0]!.skill.name).toBe('incident-triage');
    const selected = catalog.select({
      message: 'please /review my patch',
      parameters: { 'code-review': { max_findings: 3 } },
    });
    expect(selected.active[0]!.name).toBe('code-review');
    expect(selected.active[0]!.injection).toContain('Report at most 3 findings.');
    expect(catalog.triggers().commands.find((c) => c.command === '/review')!.skill).toBe('code-review');
  });

  it('installs as Installed (shadowed by a trusted skill of the same name), attenuates, and removes', async () => {
    const installed = await catalog.install({ source: { kind: 'registry', name: 'incident-triage' } });
    expect(installed.trust).toBe('INSTALLED');
    expect(catalog.list().shadowed.map((s) => [s.name, s.source])).toEqual([
      ['incident-triage', 'installed'],
    ]);

    await mkdir(join(work, 'elsewhere', 'weather-now'), { recursive: true });
    await writeFile(
      join(work, 'elsewhere', 'weather-now', 'SKILL.md'),
      '---\nname: weather-now\ndescription: Current weather.\nactivation:\n  keywords: [weather]\n---\nAsk for the city.\n',
    );
    await catalog.install({ source: { kind: 'path', path: join(work, 'elsewhere', 'weather-now') } });
    const selected = catalog.select({ message: 'what is the weather in Berlin?' });
    expect(selected.active.map((s) => [s.name, s.trust])).toEqual([['weather-now', 'INSTALLED']]);
    const attenuated = catalog.attenuate({
      activeSkills: selected.active.map((s) => ({ name: s.name, trust: s.trust })),
      tools: [tool('shell'), tool('time')],
    });
    expect(attenuated.kept.map((t) => t.name)).toEqual(['time']);
    expect(isToolAllowed('shell', attenuated.ceiling)).toBe(false);

    expect(await catalog.remove({ name: 'weather-now' })).toEqual({ name: 'weather-now', removed: true });
    expect(
      catalog
        .select({ message: 'what is the weather in Berlin?' })
        .active.filter((s) => s.name === 'weather-now'),
    ).toEqual([]);
    expect(catalog.list({ trust: 'INSTALLED' }).skills).toEqual([]);
  });

  it('applies edits from the watcher to selection', async () => {
    const changed = new Promise<void>((resolveChange) => {
      const off = catalog.onChange((snapshot) => {
        if (snapshot.skills.some((s) => s.name === 'late-user-skill')) {
          off();
          resolveChange();
        }
      });
    });
    await mkdir(join(work, 'user', 'late-user-skill'));
    await writeFile(
      join(work, 'user', 'late-user-skill', 'SKILL.md'),
      '---\nname: late-user-skill\ndescription: Late.\nactivation:\n  keywords: [flamingo]\n---\nPink.\n',
    );
    await changed;
    expect(catalog.select({ message: 'a flamingo' }).active.map((s) => s.name)).toEqual(['late-user-skill']);
  }, 20_000);
});

describe('SkillCatalog modes', () => {
  it('prefilter injects, model lists an index and injects only mentions, hybrid does both', async () => {
    const open = (mode: string) =>
      SkillCatalog.open({
        config: parseSkillsConfig(
          { WORKSPACE_DIR: join(work, 'workspace'), SKILLS_DIR: join(work, 'user'), SKILLS_MODE: mode },
          work,
        ),
        debounceMs: 50,
      });
    const message = 'the payment service is failing in production, triage the incident';
    const prefilter = await open('prefilter');
    const model = await open('model');
    const hybrid = await open('hybrid');
    try {
      const plain = prefilter.select({ message });
      expect(plain).toMatchObject({ mode: 'prefilter' });
      expect(plain.index).toBeUndefined();
      expect(plain.active.map((skill) => skill.name)).toContain('incident-triage');

      const indexed = model.select({ message });
      expect(indexed.active).toEqual([]);
      expect(indexed.indexed![0]).toBe('incident-triage');
      const eligible = model.list({ includeGatedOut: false }).skills.length;
      expect(indexed.indexed).toHaveLength(eligible);
      expect(indexed.index).toMatch(/^<available_skills>\n[\s\S]*- incident-triage \(trusted\): /);
      const mentioned = model.select({ message: '/release-notes for v2' });
      expect(mentioned.active.map((skill) => skill.name)).toEqual(['release-notes']);
      expect(mentioned.indexed).not.toContain('release-notes');

      const both = hybrid.select({ message });
      expect(both.active.map((skill) => skill.name)).toContain('incident-triage');
      expect(both.indexed).not.toContain('incident-triage');
      expect(both.indexed!.length + both.active.length).toBe(eligible);

      const loaded = await model.load({ name: 'incident-triage' });
      expect(loaded.skill).toMatchObject({ name: 'incident-triage', trust: 'TRUSTED' });
      expect(loaded.skill.injection).toMatch(/^<skill name="incident-triage"/);
      await expect(model.load({ name: 'no-such-skill' })).rejects.toMatchObject({ code: 'NOT_FOUND' });
      await expect(model.readFile({ name: 'incident-triage', path: '../code-review/SKILL.md' })).rejects.toMatchObject({
        code: 'PATH_OUTSIDE_SKILL',
      });
    } finally {
      await Promise.all([prefilter.close(), model.close(), hybrid.close()]);
    }
  });
});
