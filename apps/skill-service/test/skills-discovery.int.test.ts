import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { SkillListResult, SkillSummary } from '@talon/contracts';
import { dataOf, skillText, startSkillStack, waitFor, type SkillStack } from './skill-stack.js';

const RELOAD_BOUND_MS = 5_000;

describe('skill discovery through the running skill-service and orchestrator', () => {
  let stack: SkillStack;

  beforeAll(async () => {
    stack = await startSkillStack(async ({ dirs, writeSkill }) => {
      await writeSkill(dirs.workspace, 'alpha', skillText('alpha', 'Alpha as the workspace defines it.'));
      await writeSkill(dirs.user, 'alpha', skillText('alpha', 'Alpha as the user defines it.'));
      await writeSkill(dirs.user, 'beta', skillText('beta', 'Beta, a user skill.'));
      await writeSkill(dirs.installed, 'alpha', skillText('alpha', 'Alpha as an installed copy.'));
      await writeSkill(dirs.installed, 'gamma', skillText('gamma', 'Gamma, an installed skill.'));
      await writeSkill(dirs.workspace, 'broken', '---\nname: broken\ndescription: [unclosed\n---\nbody\n');
      await writeSkill(
        dirs.user,
        'folder-name',
        skillText('other-name', 'Its name disagrees with its folder.'),
      );
    });
  }, 90_000);

  afterAll(async () => {
    await stack?.stop();
  });

  const list = async (payload: unknown = {}) =>
    dataOf(await stack.api<SkillListResult>('skills.list', payload));
  const byName = (result: SkillListResult) =>
    new Map<string, SkillSummary>(result.skills.map((skill) => [skill.name, skill]));

  it('takes the first name in workspace → user → installed order, with trust by source', async () => {
    const result = await list();
    const skills = byName(result);
    // A name that differs from its folder loads under the declared name (a warning, not a refusal).
    expect([...skills.keys()].sort()).toEqual(['alpha', 'beta', 'gamma', 'other-name']);
    expect(skills.get('other-name')?.dir).toBe(join(stack.dirs.user, 'folder-name'));
    expect(skills.get('alpha')).toMatchObject({
      source: 'workspace',
      trust: 'TRUSTED',
      description: 'Alpha as the workspace defines it.',
      dir: join(stack.dirs.workspace, 'alpha'),
    });
    expect(skills.get('beta')).toMatchObject({ source: 'user', trust: 'TRUSTED' });
    expect(skills.get('gamma')).toMatchObject({ source: 'installed', trust: 'INSTALLED' });
    expect(
      result.shadowed
        .map(({ name, source, shadowedBy }) => ({ name, source, shadowedBy }))
        .sort((a, b) => a.source.localeCompare(b.source)),
    ).toEqual([
      { name: 'alpha', source: 'installed', shadowedBy: join(stack.dirs.workspace, 'alpha', 'SKILL.md') },
      { name: 'alpha', source: 'user', shadowedBy: join(stack.dirs.workspace, 'alpha', 'SKILL.md') },
    ]);
    const reasons = Object.fromEntries(
      result.rejected.map((rejection) => [rejection.name, rejection.reason]),
    );
    expect(reasons).toEqual({ broken: 'bad_yaml' });
    expect(
      dataOf(await stack.api<SkillListResult>('skills.list', { trust: 'INSTALLED' })).skills.map(
        (skill) => skill.name,
      ),
    ).toEqual(['gamma']);
  });

  it('applies additions, edits and removals without a restart, within a bounded time', async () => {
    const before = (await list()).generation;
    const file = await stack.writeSkill(
      stack.dirs.workspace,
      'delta',
      skillText('delta', 'Delta, added while running.'),
    );
    const addedMs = await waitFor(async () => byName(await list()).has('delta'), RELOAD_BOUND_MS);

    await writeFile(file, skillText('delta', 'Delta, edited while running.'));
    const editedMs = await waitFor(
      async () => byName(await list()).get('delta')?.description === 'Delta, edited while running.',
      RELOAD_BOUND_MS,
    );

    // Removing the workspace alpha lets the user's alpha win, live.
    await rm(join(stack.dirs.workspace, 'alpha'), { recursive: true });
    const promotedMs = await waitFor(
      async () => byName(await list()).get('alpha')?.source === 'user',
      RELOAD_BOUND_MS,
    );
    const after = await list();
    expect(byName(after).get('alpha')).toMatchObject({
      trust: 'TRUSTED',
      description: 'Alpha as the user defines it.',
    });
    expect(after.shadowed).toEqual([
      expect.objectContaining({
        name: 'alpha',
        source: 'installed',
        shadowedBy: join(stack.dirs.user, 'alpha', 'SKILL.md'),
      }),
    ]);

    await rm(join(stack.dirs.workspace, 'delta'), { recursive: true });
    const removedMs = await waitFor(async () => !byName(await list()).has('delta'), RELOAD_BOUND_MS);
    expect((await list()).generation).toBeGreaterThan(before);
    expect(stack.skillService.logs.some((line) => line.msg === 'skills changed')).toBe(true);
    // Visible in the test output as the measured reload times.
    console.log(
      JSON.stringify({
        hotReloadMs: { added: addedMs, edited: editedMs, promoted: promotedMs, removed: removedMs },
      }),
    );
  });

  it('answers NO_RESPONDERS quickly once the skill-service is stopped', async () => {
    expect(await stack.skillService.stop()).toBe(0);
    expect(stack.skillService.logs.some((line) => line.msg === 'stopped')).toBe(true);
    const started = performance.now();
    const reply = await stack.api('skills.list', {});
    const elapsedMs = performance.now() - started;
    expect(reply).toMatchObject({ ok: false, error: { code: 'NO_RESPONDERS', retryable: true } });
    expect(elapsedMs).toBeLessThan(1_000);
    expect(await stack.api('tools.call', { tool: 'skill_list', params: {} })).toMatchObject({
      ok: false,
      error: { code: 'NO_RESPONDERS' },
    });
  });
});
