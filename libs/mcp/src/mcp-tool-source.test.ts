import { afterEach, describe, expect, it } from '@jest/globals';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import type { McpToolSnapshotRecord, SharedMcpServerRecord } from '@talon/contracts';
import { ToolRegistry } from '@talon/tool-runtime';
import { MemoryRecordBucket } from '../test/support/memory-record-bucket.js';
import { parseMcpServerConfig } from './mcp-server-config.js';
import { startMcpToolSource, type McpToolSource } from './mcp-tool-source.js';

// An MCP server in this process, reached through the SDK's linked in-memory transports: what is tested
// here is when the source shares a list, not how a child process is spawned.
async function inMemoryServer() {
  const server = new McpServer({ name: 'demo', version: '1.0.0' });
  server.registerTool('greet', { description: 'Says hello.' }, async () => ({
    content: [{ type: 'text', text: 'hello' }],
  }));
  const [client, side] = InMemoryTransport.createLinkedPair();
  await server.connect(side);
  return { transport: client, pid: () => undefined };
}

describe('startMcpToolSource with shared state', () => {
  let source: McpToolSource | undefined;
  afterEach(async () => {
    await source?.close();
    source = undefined;
  });

  it("shares a stdio server's first tool list, listed while it was still starting", async () => {
    const snapshots = new MemoryRecordBucket<McpToolSnapshotRecord>();
    source = await startMcpToolSource({
      servers: [parseMcpServerConfig({ name: 'demo', transport: { type: 'stdio', command: '/bin/true' } })],
      registry: new ToolRegistry(),
      shared: {
        definitions: new MemoryRecordBucket<SharedMcpServerRecord>(),
        snapshots,
        variables: {},
        transports: ['stdio'],
        instanceId: 'runner-a',
      },
      idleStopMs: 0,
      log: () => undefined,
      manager: { createTransport: inMemoryServer },
    });
    await source.manager.start('demo');
    await source.flush();
    // The list came before the server was running; it is shared once it is.
    expect(snapshots.get('demo')).toMatchObject({
      server: 'demo',
      instance_id: 'runner-a',
      tools: [expect.objectContaining({ name: 'greet' })],
    });
  });
});
