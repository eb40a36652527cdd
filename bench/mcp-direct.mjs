// server-everything's echo over stdio: a direct SDK client call (the baseline the integrator compares
// `tools.call` over NATS against) and the same call through @talon/mcp's McpManager (adapter, input
// validation, result mapping), each on its own server process, rounds alternated. Last line: JSON.
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { printTable, summarize, timeSequential } from './support/stats.mjs';

const REPO_ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
const { McpManager, loadMcpServerRegistry, standardConfigVariables } = await import(
  join(REPO_ROOT, 'libs/mcp/dist/index.js')
);
const COUNT = Number(process.env.BENCH_COUNT ?? 3000);
const everything = join(REPO_ROOT, 'node_modules/@modelcontextprotocol/server-everything/dist/index.js');

const client = new Client({ name: 'bench', version: '1.0.0' });
await client.connect(
  new StdioClientTransport({ command: process.execPath, args: [everything, 'stdio'], stderr: 'ignore' }),
);
const servers = await loadMcpServerRegistry(join(REPO_ROOT, 'registry/mcp-servers'), {
  variables: standardConfigVariables({ root: REPO_ROOT, workspace: REPO_ROOT, dataDir: '/tmp' }),
});
const manager = new McpManager({ servers: servers.filter((server) => server.name === 'everything') });
await manager.start('everything');
const echo = manager.tools().find((tool) => tool.definition.name === 'everything_echo');
const context = () => ({
  callId: 'bench',
  signal: new AbortController().signal,
  grants: [],
  log: () => undefined,
});

const direct = async () => {
  const result = await client.callTool({ name: 'echo', arguments: { message: 'bench' } });
  if (result.isError) throw new Error('echo failed');
};
const library = async () => {
  const output = await echo.execute({ message: 'bench' }, context());
  if (!output.text.includes('bench')) throw new Error('echo failed');
};

const directSamples = [];
const librarySamples = [];
for (let round = 0; round < 5; round++) {
  directSamples.push(...(await timeSequential(direct, COUNT / 5, round === 0 ? 300 : 50)));
  librarySamples.push(...(await timeSequential(library, COUNT / 5, round === 0 ? 300 : 50)));
}
const directStats = summarize(directSamples);
const libraryStats = summarize(librarySamples);
printTable([
  { path: 'direct: SDK client → server-everything (stdio)', ...directStats },
  { path: '@talon/mcp: Tool.execute → McpManager → server-everything', ...libraryStats },
]);
await client.close();
await manager.close();
console.log(
  JSON.stringify({
    benchmark: 'mcp-direct',
    requests: COUNT,
    direct: directStats,
    library: libraryStats,
    libraryOverheadP50Ms: Math.round((libraryStats.p50 - directStats.p50) * 1000) / 1000,
    ratioP50: Math.round((libraryStats.p50 / directStats.p50) * 100) / 100,
  }),
);
