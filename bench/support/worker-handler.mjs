// What a baseline worker does with a message, shared by the stock NestJS worker (nest-service.mjs) and the
// raw nats.js responder (raw-responder.mjs), so both baselines do the same job as Talon's side:
//   echo                    answers the message itself
//   mcp-worker <script>     calls `echo` on an MCP server of its own over stdio with the SDK client
//   wasm-worker <component> runs the component in its own thread (no worker thread, no limits), its params
//                           the message's JSON text
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export const WORKER_ROLES = ['echo', 'mcp-worker', 'wasm-worker'];

/** Resolves to `(data) => answer` for the role (an MCP result, the component's parsed output or `data`). */
export async function workerHandler(role, path) {
  if (role === 'mcp-worker') {
    const { Client } = await import('@modelcontextprotocol/sdk/client/index.js');
    const { StdioClientTransport } = await import('@modelcontextprotocol/sdk/client/stdio.js');
    const client = new Client({ name: 'bench-worker', version: '1.0.0' });
    await client.connect(
      new StdioClientTransport({ command: process.execPath, args: [path, 'stdio'], stderr: 'ignore' }),
    );
    return (data) => client.callTool({ name: 'echo', arguments: data });
  }
  if (role === 'wasm-worker') {
    const { instantiateDirect } = await import('./direct-component.mjs');
    const cache = mkdtempSync(join(tmpdir(), 'talon-bench-worker-wasm-'));
    const component = await instantiateDirect(cache, readFileSync(path), 128);
    rmSync(cache, { recursive: true, force: true }); // the instance is made: its compile cache is done with
    return (data) => {
      const result = component.execute({ params: JSON.stringify(data) });
      if (result.error !== undefined) throw new Error(result.error);
      return JSON.parse(result.output);
    };
  }
  if (role === 'echo' || role === undefined) return (data) => data;
  throw new Error(`unknown worker role ${role}: one of ${WORKER_ROLES.join(', ')}`);
}
