import { describe, expect, it } from '@jest/globals';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { ERROR_CODES, type ToolDefinition } from '@talon/contracts';
import { TalonError } from '@talon/errors';
import { createTalonMcpServer } from '@talon/mcp';
import { createOutputSafety } from '@talon/safety';
import type { NatsRequester } from '@talon/service-runtime';
import { ToolCatalog, type Tool } from '@talon/tool-runtime';
import { ToolDispatcher } from '../tools/tool-dispatcher.js';
import { talonMcpServerOptions } from './talon-mcp-catalog.js';

class ApprovalRequiredForTest extends TalonError {
  constructor(approvalId: string) {
    super(ERROR_CODES.APPROVAL_REQUIRED, 'a person must approve this call first', {
      details: { approvalId },
    });
  }
}

function localTool(name: string, execute: Tool['execute']): Tool {
  const definition: ToolDefinition = {
    name,
    description: name,
    parameters: { type: 'object', properties: { message: { type: 'string' } }, additionalProperties: false },
    effects: [],
    approval: 'never',
    timeoutMs: 1000,
    domain: 'orchestrator',
    source: 'builtin',
    sensitiveParams: [],
    idempotent: false,
  };
  return { definition, execute };
}

async function connectedClient() {
  const catalog = new ToolCatalog();
  catalog.registerLocal(
    localTool(
      'say',
      async (params) => `said ${String(params.message)} sk-proj-abcdefghijklmnopqrstuvwxyzABCDEF0123456789`,
    ),
  );
  catalog.registerLocal(
    localTool('guarded', async () => {
      throw new ApprovalRequiredForTest('appr-42');
    }),
  );
  // Local tools never reach NATS: the requester is not used.
  const dispatcher = new ToolDispatcher({
    catalog,
    requester: undefined as unknown as NatsRequester,
    safety: createOutputSafety(),
  });
  const server = createTalonMcpServer(
    talonMcpServerOptions(catalog, (request) => dispatcher.call(request), 'mcp-test'),
  );
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await server.connect(serverSide);
  const client = new Client({ name: 'test', version: '1.0.0' });
  await client.connect(clientSide);
  return { client };
}

const textOf = (result: unknown) => ((result as CallToolResult).content[0] as { text: string }).text;

describe('talonMcpServerOptions', () => {
  it('answers with the wrapped, leak-redacted text of the dispatcher', async () => {
    const { client } = await connectedClient();
    expect((await client.listTools()).tools.map((tool) => tool.name)).toEqual(['guarded', 'say']);
    const result = await client.callTool({ name: 'say', arguments: { message: 'hi' } });
    expect(textOf(result)).toMatch(/^<tool_output name="say"/);
    expect(textOf(result)).toContain('said hi');
    expect(textOf(result)).not.toContain('sk-proj-abcdefghijklmnop');
    await client.close();
  });

  it('turns APPROVAL_REQUIRED into an "approval required" result carrying the approval id', async () => {
    const { client } = await connectedClient();
    const result = await client.callTool({ name: 'guarded', arguments: {} });
    expect(result.isError).toBe(true);
    expect(textOf(result)).toContain('approval required (approval id: appr-42)');
    expect(result._meta).toMatchObject({
      'talon/errorCode': 'APPROVAL_REQUIRED',
      'talon/approvalId': 'appr-42',
    });
    const invalid = await client.callTool({ name: 'say', arguments: { message: 'x', extra: 1 } });
    expect(invalid).toMatchObject({ isError: true, _meta: { 'talon/errorCode': 'SCHEMA_VIOLATION' } });
    await client.close();
  });
});
