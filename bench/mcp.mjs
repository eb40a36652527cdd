// server-everything's echo over stdio, called three ways in the same run: through Talon (`tools.call` over
// NATS → orchestrator: validation, dispatch → wasm-runner: McpManager → server; then leak scan, sanitize,
// wrap and audit), directly with the SDK client on its own server process, and through the stock NestJS
// service a user would write instead (ClientProxy → gateway → worker whose handler calls the server with
// the SDK client: the same two hops, no validation, no audit), rounds alternated. The raw nats.js chain
// (client → relay → responder calling its own server with the SDK client) shows the floor of those hops.
// Target (issue 19): Talon adds under 0.5 ms at p50 (it was 1 ms); what NestJS adds is printed beside it.
// The orchestrator runs on PostgreSQL, or with BENCH_DATABASE=pglite on PGlite with a data directory as
// `talon up` runs it (the audit journal). Last line: JSON.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { REPO_ROOT, testing } from './support/processes.mjs';
import { startRawChain } from './support/raw-chain.mjs';
import { startStockNest } from './support/stock-nest.mjs';
import { loadAtStart, printTable, summarize, timeSequential, warmUntilSteady } from './support/stats.mjs';
import { connectTalonApi } from './support/talon-api.mjs';

const COUNT = Number(process.env.BENCH_COUNT ?? 2000);
const PGLITE = process.env.BENCH_DATABASE === 'pglite';
const LOAD_AT_START = loadAtStart('mcp');
const everything = join(REPO_ROOT, 'node_modules/@modelcontextprotocol/server-everything/dist/index.js');
const state = await mkdtemp(join(tmpdir(), 'talon-bench-mcp-'));
const [nats, database] = await Promise.all([testing.startNatsTestServer(), testing.createTestDatabase()]);
const quiet = { NATS_URL: nats.url, LOG_LEVEL: 'warn' };
const ready = (service) => service.waitForLog(() => true).catch(() => undefined);
const orchestrator = await testing.startServiceProcess(
  'orchestrator',
  {
    ...quiet,
    ...(PGLITE ? { TALON_PGLITE_DIR: join(state, 'pglite') } : { DATABASE_URL: database.url }),
    TALON_HTTP_PORT: String(await testing.findFreePort()),
    TALON_GRPC_PORT: String(await testing.findFreePort()),
  },
  { waitReady: false },
);
const runner = await testing.startServiceProcess(
  'wasm-runner',
  { ...quiet, TALON_STATE_DIR: state, TALON_MCP_IDLE_MS: '0' },
  { waitReady: false },
);
// A tool-worker's built-in echo takes the same two NATS hops without MCP: it shows what the hops cost.
const worker = await testing.startServiceProcess('tool-worker', quiet, { waitReady: false });
await Promise.all([ready(orchestrator), ready(runner), ready(worker)]);

const talon = await connectTalonApi(nats);
const { api } = talon;
// Wait for both services, then start the server and let its tools reach the catalog.
for (let attempt = 0; ; attempt++) {
  try {
    await api('mcp.call', { tool: 'everything.echo', arguments: { message: 'warm' } });
    break;
  } catch (error) {
    if (attempt > 100) throw error;
    await new Promise((done) => setTimeout(done, 200));
  }
}

const client = new Client({ name: 'bench', version: '1.0.0' });
await client.connect(
  new StdioClientTransport({ command: process.execPath, args: [everything, 'stdio'], stderr: 'ignore' }),
);

const viaTalon = async () => {
  const reply = await talon.client.tools.call(
    { tool: 'everything_echo', params: { message: 'bench' } },
    { timeoutMs: 10_000 },
  );
  if (!reply.text.includes('bench')) throw new Error(`talon echo failed: ${JSON.stringify(reply)}`);
};
const direct = async () => {
  const result = await client.callTool({ name: 'echo', arguments: { message: 'bench' } });
  if (result.isError) throw new Error('direct echo failed');
};

// The stock NestJS two-hop service, its worker holding an SDK client to a server-everything of its own.
const nest = await startStockNest(nats, 'mcp-worker', everything);
const viaNest = async () => {
  const result = await nest.call({ message: 'bench' });
  if (!result?.content?.[0]?.text?.includes('bench'))
    throw new Error(`nest echo failed: ${JSON.stringify(result)}`);
};

// The raw nats.js two-hop chain, its responder holding an SDK client to a server-everything of its own.
const rawChain = await startRawChain(nats, 'mcp-worker', everything);
const viaRaw = async () => {
  const reply = await rawChain.call({ message: 'bench' });
  if (!reply.ok || !reply.data?.content?.[0]?.text?.includes('bench'))
    throw new Error(`raw echo failed: ${JSON.stringify(reply)}`);
};

const viaBuiltin = async () => {
  await talon.client.tools.call({ tool: 'echo', params: { message: 'bench' } }, { timeoutMs: 10_000 });
};

// Each path warmed until its p50 stops falling (V8 compiles the services' hot paths over thousands of calls).
const warmUpCalls = {
  direct: await warmUntilSteady(direct),
  talon: await warmUntilSteady(viaTalon),
  builtin: await warmUntilSteady(viaBuiltin),
  nest: await warmUntilSteady(viaNest),
  raw: await warmUntilSteady(viaRaw),
};
const talonSamples = [];
const directSamples = [];
const builtinSamples = [];
const nestSamples = [];
const rawSamples = [];
// Short alternating rounds, so load from anything else on the machine falls on every path alike.
const ROUNDS = 20;
for (let round = 0; round < ROUNDS; round++) {
  directSamples.push(...(await timeSequential(direct, COUNT / ROUNDS, 20)));
  talonSamples.push(...(await timeSequential(viaTalon, COUNT / ROUNDS, 20)));
  builtinSamples.push(...(await timeSequential(viaBuiltin, COUNT / ROUNDS, 20)));
  nestSamples.push(...(await timeSequential(viaNest, COUNT / ROUNDS, 20)));
  rawSamples.push(...(await timeSequential(viaRaw, COUNT / ROUNDS, 20)));
}
const talonStats = summarize(talonSamples);
const directStats = summarize(directSamples);
const builtinStats = summarize(builtinSamples);
const nestStats = summarize(nestSamples);
const rawStats = summarize(rawSamples);
printTable([
  { path: 'talon: tools.call → orchestrator → wasm-runner → server-everything (stdio)', ...talonStats },
  { path: 'direct: SDK client → server-everything (stdio)', ...directStats },
  { path: 'hops only: tools.call → orchestrator → tool-worker built-in echo', ...builtinStats },
  { path: 'stock NestJS: ClientProxy → gateway → worker → server-everything (stdio)', ...nestStats },
  { path: 'raw nats.js: client → relay → responder → server-everything (stdio)', ...rawStats },
]);
await nest.stop();
await rawChain.stop();
await client.close();
await talon.close();
await Promise.all([orchestrator.stop(), runner.stop(), worker.stop()]);
await nats.stop();
await database.drop();
await rm(state, { recursive: true, force: true });
const round = (value) => Math.round(value * 1000) / 1000;
console.log(
  JSON.stringify({
    benchmark: 'mcp',
    database: PGLITE ? 'pglite data dir, audit journal' : 'postgres',
    calls: COUNT,
    warmUpCalls,
    loadAverageAtStart: LOAD_AT_START,
    talon: talonStats,
    direct: directStats,
    addedP50Ms: round(talonStats.p50 - directStats.p50),
    addedP99Ms: round(talonStats.p99 - directStats.p99),
    ratioP50: Math.round((talonStats.p50 / directStats.p50) * 100) / 100,
    ratioP99: Math.round((talonStats.p99 / directStats.p99) * 100) / 100,
    builtinEchoViaTalon: builtinStats,
    mcpOverBuiltinP50Ms: round(talonStats.p50 - builtinStats.p50 - directStats.p50),
    nest: nestStats,
    nestAddedP50Ms: round(nestStats.p50 - directStats.p50),
    talonVsNestP50: Math.round((talonStats.p50 / nestStats.p50) * 100) / 100,
    // The floor: what the same two hops add with nothing but nats.js on them.
    raw: rawStats,
    rawAddedP50Ms: round(rawStats.p50 - directStats.p50),
    targetAddedP50Ms: 0.5,
    targetMet: talonStats.p50 - directStats.p50 < 0.5,
  }),
);
