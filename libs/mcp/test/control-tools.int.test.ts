import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { ToolRegistry, type Tool } from '@talon/tool-runtime';
import { createMcpControlTools, McpManager, type McpToolOutput } from '../src/index.js';
import { fixtureServer } from './support/mcp-test-servers.js';

const context = () => ({
  callId: 'c',
  signal: new AbortController().signal,
  grants: [],
  log: () => undefined,
});

describe('mcp_start, mcp_stop, mcp_list and mcp_call', () => {
  let manager: McpManager;
  let tools: Map<string, Tool>;

  beforeAll(() => {
    manager = new McpManager({
      servers: [
        fixtureServer('web', 'hostile-server.mjs', { approval: 'never' }),
        fixtureServer('files', 'hostile-server.mjs', { effects: ['write_filesystem'] }),
      ],
    });
    tools = new Map(
      createMcpControlTools(manager, { domain: 'container' }).map((tool) => [tool.definition.name, tool]),
    );
  });
  afterAll(() => manager.close());

  it('register as built-ins, so an MCP tool can never take their names', () => {
    const registry = new ToolRegistry();
    for (const tool of tools.values()) registry.register(tool);
    expect(registry.isProtected('mcp_call')).toBe(true);
    expect(tools.get('mcp_call')?.definition.effects.sort()).toEqual([
      'external_write',
      'network',
      'write_filesystem',
    ]);
  });

  it('start, list, call and stop a server', async () => {
    const run = (name: string, params: Record<string, unknown>) =>
      tools.get(name)?.execute(params, context());
    expect(await run('mcp_start', { server: 'web' })).toMatchObject({ name: 'web', state: 'running' });
    const listed = (await run('mcp_list', {})) as {
      servers: { name: string; state: string; toolCount: number }[];
    };
    expect(listed.servers.map((server) => [server.name, server.state])).toEqual([
      ['web', 'running'],
      ['files', 'stopped'],
    ]);
    expect(
      ((await run('mcp_call', { tool: 'web.echo', arguments: { message: 'via mcp_call' } })) as McpToolOutput)
        .text,
    ).toContain('via mcp_call');
    await expect(run('mcp_call', { tool: 'web.nothing' })).rejects.toMatchObject({ code: 'UNKNOWN_TOOL' });
    expect(await run('mcp_stop', { server: 'web' })).toMatchObject({ state: 'stopped' });
    await expect(run('mcp_start', { server: 'nowhere' })).rejects.toMatchObject({ code: 'NOT_FOUND' });
  });

  it('asks for the approval of the tool mcp_call names, never less', async () => {
    await manager.start('web');
    const call = tools.get('mcp_call');
    expect(call?.approvalFor?.({ tool: 'web.echo' })).toBe('never');
    expect(call?.approvalFor?.({ tool: 'web.wipe' })).toBe('always');
    expect(call?.approvalFor?.({ tool: 'unknown.tool' })).toBe('always');
  });
});
