import { describe, expect, it } from '@jest/globals';
import type { ToolDefinition } from '@talon/contracts';
import { ToolRegistry, type Tool } from '@talon/tool-runtime';
import { syncMcpToolsIntoRegistry } from './mcp-registry-sync.js';

function tool(name: string, source: ToolDefinition['source'] = 'mcp', description = name): Tool {
  return {
    definition: {
      name,
      description,
      parameters: { type: 'object', properties: {} },
      effects: ['network'],
      approval: 'never',
      timeoutMs: 1000,
      domain: 'container',
      source,
      sensitiveParams: [],
      idempotent: false,
    },
    execute: async () => description,
  };
}

describe('syncMcpToolsIntoRegistry', () => {
  it('registers, replaces and removes MCP tools, refusing protected names without throwing', () => {
    const registry = new ToolRegistry();
    registry.register(tool('web_fetch', 'builtin'));
    const refused: { name: string; code?: string }[] = [];
    const sync = syncMcpToolsIntoRegistry(registry, (name, error) =>
      refused.push({ name, code: (error as { code?: string }).code }),
    );

    sync([tool('web_fetch'), tool('everything_echo')]);
    expect(refused).toEqual([{ name: 'web_fetch', code: 'NAME_CONFLICT' }]);
    expect(registry.get('web_fetch')?.definition.source).toBe('builtin');
    expect(registry.has('everything_echo')).toBe(true);

    const changed = tool('everything_echo', 'mcp', 'new description');
    sync([changed, tool('everything_add')]);
    expect(registry.get('everything_echo')).toBe(changed);
    expect(registry.has('everything_add')).toBe(true);

    sync([]);
    expect(registry.list().map((entry) => entry.definition.name)).toEqual(['web_fetch']);
  });

  it('reports a tool with a bad definition and keeps the others', () => {
    const registry = new ToolRegistry();
    const refused: string[] = [];
    const sync = syncMcpToolsIntoRegistry(registry, (name) => refused.push(name));
    sync([tool('bad name with spaces'), tool('good_one')]);
    expect(refused).toEqual(['bad name with spaces']);
    expect(registry.has('good_one')).toBe(true);
  });
});
