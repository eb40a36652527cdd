import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { McpDefinitionReply, SkillListResult, SkillSummary } from '@talon/contracts';
import { startServiceProcess, type ServiceProcess } from '@talon/testing';
import { dataOf, skillText, startSkillStack, waitFor, type SkillStack } from './skill-stack.js';

/** Generous bound for one propagation on a loaded 2-core machine; the printed figures are what counts. */
const PROPAGATION_MS = 15_000;

const requiresMcp = (server: string) => `requires:\n  mcp: [${server}]\n`;

describe('requires.mcp follows the MCP servers added and removed at run time (talon_mcp_servers)', () => {
  let stack: SkillStack;
  let lateReplica: ServiceProcess | undefined;

  beforeAll(async () => {
    stack = await startSkillStack(async ({ dirs, writeSkill }) => {
      await writeSkill(
        dirs.workspace,
        'docs-lookup',
        skillText('docs-lookup', 'Looks things up in the team docs.', requiresMcp('team-docs')),
      );
      // `everything` is defined by the repository's registry files, which this skill-service reads.
      await writeSkill(
        dirs.workspace,
        'uses-everything',
        skillText('uses-everything', 'Uses the reference server.', requiresMcp('everything')),
      );
    });
  }, 90_000);

  afterAll(async () => {
    await lateReplica?.stop().catch(() => undefined);
    await stack?.stop();
  });

  const skill = async (name: string): Promise<SkillSummary | undefined> =>
    dataOf(await stack.api<SkillListResult>('skills.list', {})).skills.find(
      (candidate) => candidate.name === name,
    );
  const eligible = async (name: string) => (await skill(name))?.gating.eligible === true;

  it('gates a skill out while its server is not configured, and keeps file-defined servers', async () => {
    const docs = await skill('docs-lookup');
    expect(docs?.gating.eligible).toBe(false);
    expect(docs?.gating.reasons.join(' ')).toContain('team-docs');
    expect(await eligible('uses-everything')).toBe(true);
    const load = await stack.skills('load', { name: 'docs-lookup' });
    expect(!load.ok && load.error.code).toBe('NOT_FOUND');
  });

  it('mcp.add makes the skill available without a restart, mcp.remove gates it out again', async () => {
    const added = dataOf(
      await stack.api<McpDefinitionReply>('mcp.add', {
        definition: {
          name: 'team-docs',
          transport: { type: 'streamable-http', url: 'https://docs.example.com/mcp' },
        },
      }),
    );
    expect(added).toMatchObject({ name: 'team-docs', change: 'added' });
    const addedMs = await waitFor(() => eligible('docs-lookup'), PROPAGATION_MS);
    const load = dataOf(await stack.skills<{ skill: { name: string } }>('load', { name: 'docs-lookup' }));
    expect(load.skill.name).toBe('docs-lookup');

    // A definition replaced under the same name keeps the skill available.
    dataOf(
      await stack.api<McpDefinitionReply>('mcp.add', {
        definition: {
          name: 'team-docs',
          transport: { type: 'streamable-http', url: 'https://docs2.example.com/mcp' },
        },
      }),
    );
    expect(await eligible('docs-lookup')).toBe(true);

    dataOf(await stack.api<McpDefinitionReply>('mcp.remove', { server: 'team-docs' }));
    const removedMs = await waitFor(async () => !(await eligible('docs-lookup')), PROPAGATION_MS);
    expect((await skill('docs-lookup'))?.gating.reasons.join(' ')).toContain('team-docs');
    expect(await eligible('uses-everything')).toBe(true);
    console.log(
      `[skills-mcp-gating] mcp.add → skill eligible: ${addedMs} ms; mcp.remove → gated out: ${removedMs} ms`,
    );
  });

  it('a skill-service started after the mcp.add gates on the server from the bucket', async () => {
    dataOf(
      await stack.api<McpDefinitionReply>('mcp.add', {
        definition: { name: 'team-docs', transport: { type: 'sse', url: 'https://docs.example.com/sse' } },
      }),
    );
    await waitFor(() => eligible('docs-lookup'), PROPAGATION_MS);
    // Only the late replica answers from here on.
    await stack.skillService.stop();
    lateReplica = await startServiceProcess('skill-service', stack.skillServiceEnv);
    expect(await eligible('docs-lookup')).toBe(true);
    expect(lateReplica.logs.some((line) => line.msg === 'shared MCP server not counted')).toBe(false);
  });
});
