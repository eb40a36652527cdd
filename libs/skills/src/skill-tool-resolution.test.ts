import { describe, expect, it } from '@jest/globals';
import type { ActiveSkill, SelectResult } from '@talon/contracts';
import { gateSelectionByTools, resolveSkillTools } from './skill-tool-resolution.js';

const catalog = new Set(['read_file', 'grep', 'echo', 'everything_echo']);
const registry = { wasm: ['text-stats'], mcpServers: ['everything', 'filesystem'] };

describe('resolveSkillTools', () => {
  it('finds present tools, offers installable ones and gates on missing required ones', () => {
    expect(
      resolveSkillTools(
        [
          { name: 'read_file', optional: false },
          { name: 'text_stats', optional: false },
          { name: 'filesystem_read_text_file', optional: false },
          { name: 'git_diff', optional: true },
        ],
        catalog,
        registry,
      ),
    ).toEqual({
      present: ['read_file'],
      offers: [
        { tool: 'text_stats', optional: false, via: { tool: 'tool_install', params: { name: 'text-stats' } } },
        {
          tool: 'filesystem_read_text_file',
          optional: false,
          via: { tool: 'mcp_start', params: { server: 'filesystem' } },
        },
      ],
      missing: [{ name: 'git_diff', optional: true }],
      eligible: true,
      reasons: [
        'tool "text_stats" is not installed; tool_install {"name": "text-stats"} installs it (asks for approval)',
        'tool "filesystem_read_text_file" comes from the MCP server "filesystem", which is not running; mcp_start {"server": "filesystem"} starts it',
        'optional tool "git_diff" is not available',
      ],
    });
  });

  it('gates a skill out when a required tool is unknown', () => {
    const resolution = resolveSkillTools([{ name: 'http_request', optional: false }], catalog, registry);
    expect(resolution.eligible).toBe(false);
    expect(resolution.reasons).toEqual(['required tool "http_request" is not available and not installable']);
  });

  it('accepts the people-facing MCP spelling server.tool', () => {
    expect(resolveSkillTools([{ name: 'everything.echo', optional: false }], catalog).present).toEqual([
      'everything.echo',
    ]);
  });
});

describe('gateSelectionByTools', () => {
  const skill = (name: string, tools: ActiveSkill['tools']): ActiveSkill => ({
    name,
    version: '1',
    trust: 'TRUSTED',
    tier: 'keyword',
    score: 3,
    costTokens: 10,
    reasons: ['keyword'],
    allowedTools: [],
    tools,
    injection: `<skill name="${name}">…</skill>`,
  });
  const selection: SelectResult = {
    active: [skill('ok', [{ name: 'grep', optional: false }]), skill('broken', [{ name: 'git_diff', optional: false }])],
    considered: [
      { name: 'ok', trust: 'TRUSTED', tier: 'keyword', score: 3, costTokens: 10, outcome: 'active', reasons: [] },
      { name: 'broken', trust: 'TRUSTED', tier: 'keyword', score: 3, costTokens: 10, outcome: 'active', reasons: [] },
    ],
    consideredTotal: 2,
    tokensUsed: 20,
    injection: 'both',
    durationMs: 0,
  };

  it('moves a skill with a missing required tool to gated_out with the reason', () => {
    const gated = gateSelectionByTools(selection, catalog);
    expect(gated.active.map((entry) => entry.name)).toEqual(['ok']);
    expect(gated.considered.find((entry) => entry.name === 'broken')).toMatchObject({
      outcome: 'gated_out',
      reasons: ['required tool "git_diff" is not available and not installable'],
    });
    expect(gated.injection).toBe('<skill name="ok">…</skill>');
    expect(gated.tokensUsed).toBe(10);
  });

  it('keeps a skill whose tool is installable and tells the model how to install it', () => {
    const gated = gateSelectionByTools(
      { ...selection, active: [skill('stats', [{ name: 'text-stats', optional: false }])] },
      catalog,
      registry,
    );
    expect(gated.active[0]!.injection).toContain('text-stats via tool_install {"name":"text-stats"}');
    expect(gated.active[0]!.reasons.at(-1)).toContain('asks for approval');
  });
});
