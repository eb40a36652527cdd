import { describe, expect, it } from '@jest/globals';
import type { ActiveSkill, SelectResult } from '@talon/contracts';
import { mcpServersToStart } from './skill-mcp-autostart.js';

const registry = { wasm: ['text-stats'], mcpServers: ['notes', 'files'] };

function active(name: string, trust: 'TRUSTED' | 'INSTALLED', tools: string[]): ActiveSkill {
  return {
    name,
    trust,
    tier: 'full',
    score: 1,
    costTokens: 10,
    reasons: [],
    injection: `<skill name="${name}"></skill>`,
    tools: tools.map((tool) => ({ name: tool, optional: false })),
  } as unknown as ActiveSkill;
}

function selection(...skills: ActiveSkill[]): SelectResult {
  return { active: skills, considered: [], tokensUsed: 0, injection: '' } as unknown as SelectResult;
}

describe('mcpServersToStart', () => {
  it('starts the servers of missing tools that Trusted skills declare, once per server', () => {
    const starts = mcpServersToStart(
      selection(
        active('a', 'TRUSTED', ['notes_echo', 'read_file', 'text_stats']),
        active('b', 'TRUSTED', ['notes_peek', 'notes_echo']),
      ),
      new Set(['read_file']),
      registry,
      'trusted',
    );
    expect(starts).toEqual([{ server: 'notes', skills: ['a', 'b'], tools: ['notes_echo', 'notes_peek'] }]);
  });

  it('starts nothing for Installed skills, present tools, or when switched off', () => {
    const installed = selection(active('x', 'INSTALLED', ['notes_echo']));
    expect(mcpServersToStart(installed, new Set(), registry, 'trusted')).toEqual([]);
    const present = selection(active('a', 'TRUSTED', ['notes_echo']));
    expect(mcpServersToStart(present, new Set(['notes_echo']), registry, 'trusted')).toEqual([]);
    expect(mcpServersToStart(present, new Set(), registry, 'off')).toEqual([]);
    // A tool no registry server provides is not a start (gating reports it).
    expect(mcpServersToStart(selection(active('a', 'TRUSTED', ['git_diff'])), new Set(), registry, 'trusted')).toEqual(
      [],
    );
  });
});
