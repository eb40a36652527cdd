// `tools.call` of `echo` as an agent calls it (`policy: "agent"` with an agent-scope token in a session of
// its own: the session's owner is checked, its grants read and the policy decided on every call) against the
// same call by an operator (no policy), and `policy: "agent"` with the operator token between them, on PGlite
// with a data directory (as `talon up` runs it) and on PostgreSQL (as compose deploys it; several
// orchestrators write it, so readings are kept only while its change notices are heard). Per side: calls/s
// at concurrency 64 for a fixed time and the orchestrator's CPU per call (/proc/<pid>/stat), in rounds
// rotated per round; figures are medians over rounds. The ratios are the agent sides' over the operator's:
// the cost of the agent policy. Target (issue 19: "the same for a policy: agent call"): CPU per call within
// 1.2× of the operator call, calls/s at least 0.85×. Last line: JSON.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { processCpuMs } from './support/process-cpu.mjs';
import { testing } from './support/processes.mjs';
import { loadAtStart, percentile, printTable, throughputFor, warmUntilSteady } from './support/stats.mjs';

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5);
const CONCURRENCY = 64;
const THROUGHPUT_MS = Number(process.env.BENCH_THROUGHPUT_MS ?? 3000);
const LOAD_AT_START = loadAtStart('agent-policy');

/** One orchestrator and one tool-worker on a NATS server of their own, and the three callers. */
async function startStack(database) {
  const nats = await testing.startNatsTestServer();
  const env = {
    NATS_URL: nats.url,
    ...database.env,
    TALON_HTTP_PORT: String(await testing.findFreePort()),
    TALON_GRPC_PORT: String(await testing.findFreePort()),
    LOG_LEVEL: 'info',
  };
  const [orchestrator, worker] = await Promise.all([
    testing.startServiceProcess('orchestrator', env, { timeoutMs: 180_000 }),
    testing.startServiceProcess('tool-worker', env, { timeoutMs: 180_000 }),
  ]);
  const operator = await testing.connectTalonApi(nats.url);
  await testing.waitUntil(
    async () => (await operator.call('tools.call', { tool: 'echo', params: { message: 'x' } })).ok,
    30_000,
    'echo in the catalog',
  );
  const operatorSession = await operator.ok('sessions.create', { title: 'agent-policy' });
  const token = (await operator.ok('tokens.create', { name: 'agent-policy', scope: 'agent' })).token;
  const agent = await testing.connectTalonApi(nats.url, { token });
  const agentSession = await agent.ok('sessions.create', { title: 'agent-policy' });
  const echo = (api, extra) => async () => {
    const reply = await api.call(
      'tools.call',
      { tool: 'echo', params: { message: 'hello' }, ...extra },
      10_000,
    );
    if (!reply.ok) throw new Error(`${reply.error.code}: ${reply.error.message}`);
  };
  return {
    orchestratorPid: orchestrator.child.pid,
    sides: {
      operator: echo(operator, {}),
      agentPolicy: echo(operator, { policy: 'agent', sessionId: operatorSession.id }),
      agentToken: echo(agent, { policy: 'agent', sessionId: agentSession.id }),
    },
    async stop() {
      await agent.close();
      await operator.close();
      await Promise.all([orchestrator.stop(), worker.stop()]);
      await nats.stop();
      await database.drop();
    },
  };
}

/** Calls per second with `CONCURRENCY` callers for `THROUGHPUT_MS`, and the calls made. */
const throughput = (call) => throughputFor(call, { concurrency: CONCURRENCY, ms: THROUGHPUT_MS });

const median = (values) => percentile(values, 0.5);
const round2 = (value) => Math.round(value * 100) / 100;

/** Warms every side, then measures them in rounds whose order rotates. */
async function measure(stack) {
  for (const call of Object.values(stack.sides)) {
    await warmUntilSteady(call);
    await throughput(call);
  }
  const names = Object.keys(stack.sides);
  const rounds = Object.fromEntries(names.map((name) => [name, { perSecond: [], cpuUs: [] }]));
  for (let round = 0; round < ROUNDS; round++) {
    for (let index = 0; index < names.length; index++) {
      const name = names[(index + round) % names.length];
      const cpuBefore = processCpuMs(stack.orchestratorPid);
      const { calls, perSecond } = await throughput(stack.sides[name]);
      rounds[name].perSecond.push(perSecond);
      rounds[name].cpuUs.push(((processCpuMs(stack.orchestratorPid) - cpuBefore) * 1000) / calls);
    }
  }
  const figures = Object.fromEntries(
    names.map((name) => [
      name,
      {
        c64PerSecond: Math.round(median(rounds[name].perSecond)),
        cpuUsPerCall: round2(median(rounds[name].cpuUs)),
      },
    ]),
  );
  // The medians of the rounds' own ratios to the operator call.
  const ratio = (name, key) =>
    round2(median(rounds[name][key].map((value, index) => value / rounds.operator[key][index])));
  for (const name of ['agentPolicy', 'agentToken'])
    figures[name].vsOperator = { c64: ratio(name, 'perSecond'), cpuPerCall: ratio(name, 'cpuUs') };
  return figures;
}

const pgliteDir = mkdtempSync(join(tmpdir(), 'talon-bench-agent-policy-'));
const results = {};
try {
  const pglite = await startStack({
    env: { TALON_PGLITE_DIR: join(pgliteDir, 'pglite') },
    drop: async () => undefined,
  });
  results.pglite = await measure(pglite);
  await pglite.stop();
  const database = await testing.createTestDatabase('talon_bench_agent_policy');
  const postgres = await startStack({
    env: { TALON_PGLITE_DIR: '', DATABASE_URL: database.url },
    drop: () => database.drop(),
  });
  results.postgres = await measure(postgres);
  await postgres.stop();
} finally {
  rmSync(pgliteDir, { recursive: true, force: true });
}

const labels = {
  operator: 'operator token, no policy',
  agentPolicy: 'policy "agent", operator token',
  agentToken: 'policy "agent", agent token (session owner checked)',
};
printTable(
  Object.entries(results).flatMap(([database, figures]) =>
    Object.entries(figures).map(([name, side]) => ({
      side: `${database}: ${labels[name]}`,
      'c64 calls/s': side.c64PerSecond,
      'orchestrator CPU µs/call': side.cpuUsPerCall,
      'c64 vs operator': side.vsOperator?.c64 ?? '',
      'CPU vs operator': side.vsOperator?.cpuPerCall ?? '',
    })),
  ),
);
const TARGET_CPU = 1.2;
const TARGET_C64 = 0.85;
const targetMet = Object.values(results).every((figures) =>
  ['agentPolicy', 'agentToken'].every(
    (name) => figures[name].vsOperator.cpuPerCall <= TARGET_CPU && figures[name].vsOperator.c64 >= TARGET_C64,
  ),
);
console.log(
  JSON.stringify({
    benchmark: 'agent-policy',
    loadAverageAtStart: LOAD_AT_START,
    rounds: ROUNDS,
    concurrency: CONCURRENCY,
    throughputMs: THROUGHPUT_MS,
    ...results,
    targetCpuRatio: TARGET_CPU,
    targetC64Ratio: TARGET_C64,
    targetMet,
  }),
);
