import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { createHash } from 'node:crypto';
import { readdir, readFile, stat } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import { join } from 'node:path';
import type {
  AttenuateResult,
  SelectResult,
  SkillInstallResult,
  SkillListResult,
  SkillRemoveResult,
  SkillTriggerTable,
  ToolDefinition,
  ToolsCallReply,
  ToolsListReply,
} from '@talon/contracts';
import { findFreePort, REPO_ROOT } from '@talon/testing';
import { dataOf, skillText, startSkillStack, type SkillStack } from './skill-stack.js';

const LOOPBACK_SKILL = skillText(
  'loopback-notes',
  'Keeps notes of a loopback test, served over HTTP.',
  'activation:\n  keywords: [loopback notes]\n',
);
const LOOPBACK_SHA = createHash('sha256').update(LOOPBACK_SKILL).digest('hex');

function tool(name: string, effects: ToolDefinition['effects']): ToolDefinition {
  return {
    name,
    description: name,
    parameters: { type: 'object' },
    effects,
    approval: 'never',
    timeoutMs: 1000,
    domain: 'orchestrator',
    source: 'builtin',
    sensitiveParams: [],
    idempotent: true,
  };
}

describe('skills.* through the orchestrator: select, install, remove, triggers, tools and bad input', () => {
  let stack: SkillStack;
  let server: Server;
  let serverPort: number;
  const served: string[] = [];

  beforeAll(async () => {
    server = createServer((request, response) => {
      served.push(request.url ?? '');
      if (request.url === '/loopback-notes/SKILL.md')
        response.writeHead(200, { 'content-type': 'text/markdown' }).end(LOOPBACK_SKILL);
      else response.writeHead(404).end();
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    serverPort = (server.address() as { port: number }).port;
    stack = await startSkillStack(
      async ({ dirs, writeSkill }) => {
        await writeSkill(
          dirs.workspace,
          'deploy-check',
          skillText(
            'deploy-check',
            'Checks a deployment before and after a rollout.',
            'activation:\n  keywords: [deploy check, rollout]\n  tags: [ops]\ntriggers:\n  - command: /deploy-check\n  - schedule: "30 6 * * 1"\n',
          ),
        );
        await writeSkill(
          dirs.user,
          'meeting-notes',
          skillText(
            'meeting-notes',
            'Turns a meeting transcript into notes with decisions and action items.',
          ),
        );
      },
      { TALON_SSRF_ALLOWLIST: `127.0.0.1/32@${serverPort}` },
    );
  }, 90_000);

  afterAll(async () => {
    await stack?.stop();
    await new Promise((resolve) => server?.close(resolve));
  });

  const select = async (message: string) =>
    dataOf(await stack.api<SelectResult>('skills.select', { message }));
  const listed = async () => dataOf(await stack.api<SkillListResult>('skills.list', {})).skills;

  it('selects by keyword, with scores, reasons and the injection block', async () => {
    const result = await select('Please run a deploy check before the rollout tonight.');
    expect(result.active.map((skill) => [skill.name, skill.tier, skill.trust])).toEqual([
      ['deploy-check', 'keyword', 'TRUSTED'],
    ]);
    const [active] = result.active;
    expect(active!.score).toBeGreaterThan(0);
    expect(active!.reasons.join(' ')).toMatch(/deploy check/);
    expect(active!.injection).toMatch(/^<skill name="deploy-check" version="1\.0\.0" trust="TRUSTED">/);
    expect(result.injection).toContain(active!.injection);
    expect((await select('What is the capital of Portugal?')).active).toEqual([]);
  });

  it('activates a skill named by /mention, $mention or its command trigger', async () => {
    expect((await select('/meeting-notes here is the transcript')).active).toEqual([
      expect.objectContaining({ name: 'meeting-notes', tier: 'mention' }),
    ]);
    expect((await select('use $meeting-notes on this')).active.map((skill) => skill.name)).toEqual([
      'meeting-notes',
    ]);
    expect((await select('/deploy-check')).active).toEqual([
      expect.objectContaining({ name: 'deploy-check', tier: 'mention' }),
    ]);
    const triggers = dataOf(await stack.api<SkillTriggerTable>('skills.triggers', {}));
    expect(triggers.commands).toContainEqual({ command: '/deploy-check', skill: 'deploy-check' });
    expect(triggers.schedules).toContainEqual(
      expect.objectContaining({ cron: '30 6 * * 1', skill: 'deploy-check' }),
    );
  });

  it('installs from a registry entry as INSTALLED, and an active installed skill narrows the tools', async () => {
    const entry = JSON.parse(
      await readFile(join(REPO_ROOT, 'registry', 'skills', 'incident-triage.json'), 'utf8'),
    ) as { sha256: string };
    const installed = dataOf(
      await stack.api<SkillInstallResult>('skills.install', {
        source: { kind: 'registry', name: 'incident-triage' },
      }),
    );
    expect(installed).toEqual({
      name: 'incident-triage',
      version: '1.0.0',
      path: join(stack.dirs.installed, 'incident-triage', 'SKILL.md'),
      sha256: entry.sha256,
      trust: 'INSTALLED',
      replaced: false,
    });
    expect((await listed()).find((skill) => skill.name === 'incident-triage')).toMatchObject({
      source: 'installed',
      trust: 'INSTALLED',
    });

    const selected = await select('We have an outage: 503 errors spike on checkout.');
    const active = selected.active.find((skill) => skill.name === 'incident-triage');
    expect(active).toMatchObject({ trust: 'INSTALLED' });
    expect(active!.injection).toContain('suggestion only');
    const attenuated = dataOf(
      await stack.skills<AttenuateResult>('attenuate', {
        activeSkills: [{ name: active!.name, trust: active!.trust }],
        tools: [tool('memory_search', []), tool('shell', ['spawn_process'])],
      }),
    );
    expect(attenuated.kept.map((kept) => kept.name)).toEqual(['memory_search']);
    expect(attenuated.removed.map((removed) => removed.name)).toEqual(['shell']);
    expect(attenuated.ceiling).toMatchObject({ mode: 'read_only', causedBy: ['incident-triage'] });

    expect(
      await stack.api('skills.install', { source: { kind: 'registry', name: 'incident-triage' } }),
    ).toMatchObject({ ok: false, error: { code: 'NAME_CONFLICT' } });
    expect(
      dataOf(
        await stack.api<SkillInstallResult>('skills.install', {
          source: { kind: 'registry', name: 'incident-triage' },
          replace: true,
        }),
      ).replaced,
    ).toBe(true);
  });

  it('refuses a download whose sha256 differs, and installs it when it matches', async () => {
    const url = `http://127.0.0.1:${serverPort}/loopback-notes/SKILL.md`;
    const wrong = await stack.api('skills.install', { source: { kind: 'url', url, sha256: 'a'.repeat(64) } });
    expect(wrong).toMatchObject({
      ok: false,
      error: { code: 'INTEGRITY_MISMATCH', details: { expected: 'a'.repeat(64), actual: LOOPBACK_SHA } },
    });
    expect(served).toEqual(['/loopback-notes/SKILL.md']);
    expect((await readdir(stack.dirs.installed)).filter((name) => name.includes('loopback'))).toEqual([]);

    const good = dataOf(
      await stack.api<SkillInstallResult>('skills.install', {
        source: { kind: 'url', url, sha256: LOOPBACK_SHA },
      }),
    );
    expect(good).toMatchObject({ name: 'loopback-notes', sha256: LOOPBACK_SHA, trust: 'INSTALLED' });
    expect((await listed()).map((skill) => skill.name)).toContain('loopback-notes');
  });

  it('refuses URLs the SSRF guard forbids without fetching them', async () => {
    const closedPort = await findFreePort();
    expect(
      await stack.api('skills.install', {
        source: { kind: 'url', url: `http://127.0.0.1:${closedPort}/x/SKILL.md` },
      }),
    ).toMatchObject({ ok: false, error: { code: 'SSRF_BLOCKED' } });
    expect(
      await stack.api('skills.install', {
        source: { kind: 'url', url: `http://user:pw@127.0.0.1:${serverPort}/loopback-notes/SKILL.md` },
      }),
    ).toMatchObject({ ok: false, error: { code: 'SSRF_BLOCKED' } });
    expect(served).toHaveLength(2);
  });

  it('removes installed skills only', async () => {
    expect(dataOf(await stack.api<SkillRemoveResult>('skills.remove', { name: 'incident-triage' }))).toEqual({
      name: 'incident-triage',
      removed: true,
    });
    await expect(stat(join(stack.dirs.installed, 'incident-triage'))).rejects.toThrow();
    expect((await listed()).map((skill) => skill.name)).not.toContain('incident-triage');
    expect(dataOf(await stack.api<SkillRemoveResult>('skills.remove', { name: 'incident-triage' }))).toEqual({
      name: 'incident-triage',
      removed: false,
    });
    expect(dataOf(await stack.api<SkillRemoveResult>('skills.remove', { name: 'deploy-check' }))).toEqual({
      name: 'deploy-check',
      removed: false,
    });
    expect((await listed()).map((skill) => skill.name)).toContain('deploy-check');
    expect(await stack.api('skills.remove', { name: '../workspace' })).toMatchObject({
      ok: false,
      error: { code: 'NAME_CONFLICT' },
    });
  });

  it('gives typed errors for bad input, at the orchestrator and at the skill-service', async () => {
    expect(await stack.api('skills.list', { trust: 'NOPE' })).toMatchObject({
      ok: false,
      error: { code: 'SCHEMA_VIOLATION' },
    });
    expect(await stack.api('skills.select', {})).toMatchObject({
      ok: false,
      error: { code: 'SCHEMA_VIOLATION' },
    });
    expect(await stack.api('skills.search', { query: '' })).toMatchObject({
      ok: false,
      error: { code: 'SCHEMA_VIOLATION' },
    });
    expect(await stack.api('skills.install', { source: { kind: 'ftp', url: 'ftp://x' } })).toMatchObject({
      ok: false,
      error: { code: 'SCHEMA_VIOLATION' },
    });
    expect(
      await stack.api('skills.install', {
        source: { kind: 'url', url: 'https://example.com/SKILL.md', sha256: 'not-hex' },
      }),
    ).toMatchObject({ ok: false, error: { code: 'SCHEMA_VIOLATION' } });
    expect(await stack.api('skills.triggers', { extra: 1 })).toMatchObject({
      ok: false,
      error: { code: 'SCHEMA_VIOLATION' },
    });
    expect(
      await stack.api('skills.install', { source: { kind: 'registry', name: 'no-such-skill' } }),
    ).toMatchObject({ ok: false, error: { code: 'NOT_FOUND' } });
    expect(
      await stack.api('skills.install', { source: { kind: 'path', path: join(stack.root, 'missing') } }),
    ).toMatchObject({ ok: false, error: { code: 'NOT_FOUND' } });
    // Straight to the skill-service, past the orchestrator's own validation.
    expect(await stack.skills('select', { message: 5 })).toMatchObject({
      ok: false,
      error: {
        code: 'SCHEMA_VIOLATION',
        details: { violations: [expect.objectContaining({ path: '/message' })] },
      },
    });
    expect(
      await stack.skills('attenuate', { activeSkills: [{ name: 'x', trust: 'ROOT' }], tools: [] }),
    ).toMatchObject({ ok: false, error: { code: 'SCHEMA_VIOLATION' } });
    expect(await stack.skills('list', '{"trust":')).toMatchObject({
      ok: false,
      error: { code: 'MALFORMED_JSON' },
    });
  });

  it('serves the same methods over HTTP, with statuses that follow the codes', async () => {
    const post = (method: string, body: unknown) =>
      fetch(`${stack.httpUrl}/v1/rpc/${method}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${stack.token}` },
        body: JSON.stringify(body),
      });
    const search = await post('skills.search', { query: 'meeting transcript' });
    expect(search.status).toBe(200);
    expect(await search.json()).toMatchObject({
      ok: true,
      data: {
        hits: [expect.objectContaining({ skill: expect.objectContaining({ name: 'meeting-notes' }) })],
      },
    });
    expect((await post('skills.select', { message: 42 })).status).toBe(400);
    expect(
      (await post('skills.install', { source: { kind: 'registry', name: 'no-such-skill' } })).status,
    ).toBe(404);
  });

  it('serves skill_list, skill_search, skill_install and skill_remove as local tools', async () => {
    const catalog = dataOf(await stack.api<ToolsListReply>('tools.list', {}));
    const definitions = new Map(catalog.tools.map((entry) => [entry.definition.name, entry.definition]));
    expect(definitions.get('skill_list')).toMatchObject({ effects: [], approval: 'never', idempotent: true });
    expect(definitions.get('skill_search')).toMatchObject({ effects: [], approval: 'never' });
    expect(definitions.get('skill_install')).toMatchObject({
      effects: ['modify_extension', 'network'],
      approval: 'always',
    });
    expect(definitions.get('skill_remove')).toMatchObject({
      effects: ['modify_extension'],
      approval: 'always',
    });

    const call = async (name: string, params: unknown) =>
      stack.api<ToolsCallReply>('tools.call', { tool: name, params });
    const search = dataOf(await call('skill_search', { query: 'deploy rollout' })).output as {
      hits: Array<{ name: string }>;
    };
    expect(search.hits[0]?.name).toBe('deploy-check');
    const installed = dataOf(await call('skill_install', { registry: 'code-review' })).output;
    expect(installed).toMatchObject({ name: 'code-review', trust: 'INSTALLED' });
    const list = dataOf(await call('skill_list', { trust: 'INSTALLED' })).output as {
      skills: Array<{ name: string; commands: string[] }>;
    };
    expect(list.skills.map((skill) => skill.name).sort()).toEqual(['code-review', 'loopback-notes']);
    expect(list.skills.find((skill) => skill.name === 'code-review')?.commands).toEqual(['/review']);
    expect(await call('skill_install', {})).toMatchObject({ ok: false, error: { code: 'SCHEMA_VIOLATION' } });
    expect(
      await call('skill_install', { registry: 'code-review', url: 'https://example.com/SKILL.md' }),
    ).toMatchObject({ ok: false, error: { code: 'SCHEMA_VIOLATION' } });
    expect(dataOf(await call('skill_remove', { name: 'code-review' })).output).toEqual({
      name: 'code-review',
      removed: true,
    });
  });
});
