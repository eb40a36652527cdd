import { describe, expect, it } from '@jest/globals';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { McpJsonSchemaCompiler } from './mcp-json-schema-compiler.js';
import { parseMcpServerConfig } from './mcp-server-config.js';
import { adaptMcpTool, mcpToolApproval, type McpToolCaller } from './mcp-tool-adapter.js';

const context = { callId: 'c', signal: new AbortController().signal, grants: [], log: () => undefined };
const stdioServer = parseMcpServerConfig({
  name: 'srv',
  transport: { type: 'stdio', command: 'node' },
  call_timeout_ms: 1234,
});
const httpServer = parseMcpServerConfig({
  name: 'srv',
  transport: { type: 'streamable-http', url: 'http://127.0.0.1:1/mcp' },
  effects: ['network'],
});
const inputSchema = { type: 'object' as const, properties: { n: { type: 'integer' } }, required: ['n'] };

function adapt(server = stdioServer, answer: CallToolResult = { content: [{ type: 'text', text: 'ok' }] }) {
  const calls: unknown[][] = [];
  const call: McpToolCaller = async (...args) => {
    calls.push(args);
    return answer;
  };
  const adapted = adaptMcpTool({
    server,
    tool: { name: 'count', inputSchema },
    names: { llmName: 'srv_count', displayName: 'srv.count' },
    call,
    schemas: new McpJsonSchemaCompiler(),
  });
  if (!adapted.ok) throw new Error(adapted.unusable.reason);
  return { tool: adapted.tool, calls };
}

describe('mcpToolApproval', () => {
  it.each([
    ['never', { destructiveHint: true }, 'always'],
    ['unless_auto_approved', { destructiveHint: true }, 'always'],
    ['always', { readOnlyHint: true }, 'always'],
    ['unless_auto_approved', { readOnlyHint: true, destructiveHint: false }, 'unless_auto_approved'],
    ['never', undefined, 'never'],
  ] as const)('configured %s with hints %j gives %s', (configured, hints, expected) => {
    expect(mcpToolApproval(configured, hints)).toBe(expected);
  });
});

describe('adaptMcpTool', () => {
  it('builds the definition from config: effects, timeout, domain by transport, source mcp', () => {
    expect(adapt().tool.definition).toMatchObject({
      name: 'srv_count',
      displayName: 'srv.count',
      source: 'mcp',
      domain: 'container',
      timeoutMs: 1234,
      effects: ['network', 'external_write'],
      idempotent: false,
    });
    expect(adapt(httpServer).tool.definition).toMatchObject({ domain: 'orchestrator', effects: ['network'] });
  });

  it('validates arguments before calling the server', async () => {
    const { tool, calls } = adapt();
    await expect(tool.execute({ n: 'three' }, context)).rejects.toMatchObject({
      code: 'SCHEMA_VIOLATION',
      message: expect.stringContaining('srv.count'),
    });
    expect(calls).toHaveLength(0);
    await expect(tool.execute({ n: 3 }, context)).resolves.toMatchObject({ text: 'ok' });
    expect(calls[0]).toEqual(['srv', 'count', { n: 3 }, { signal: context.signal, timeoutMs: 1234 }]);
  });

  it('turns isError into TOOL_FAILED carrying the text', async () => {
    const { tool } = adapt(stdioServer, { isError: true, content: [{ type: 'text', text: 'disk on fire' }] });
    await expect(tool.execute({ n: 1 }, context)).rejects.toMatchObject({
      code: 'TOOL_FAILED',
      message: expect.stringContaining('disk on fire'),
    });
  });

  it('marks a tool unusable when its input schema is not JSON Schema', () => {
    const adapted = adaptMcpTool({
      server: stdioServer,
      tool: { name: 'broken', inputSchema: { type: 'object', properties: { a: { type: 'nope' } } } as never },
      names: { llmName: 'srv_broken', displayName: 'srv.broken' },
      call: async () => ({ content: [] }),
      schemas: new McpJsonSchemaCompiler(),
    });
    expect(adapted).toEqual({
      ok: false,
      unusable: expect.objectContaining({
        displayName: 'srv.broken',
        reason: expect.stringContaining('input schema'),
      }),
    });
  });
});
