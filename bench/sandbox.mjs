// The sandbox's cost: `shell` with `true` and with a small `grep -r` over a workspace, sandboxed (bubblewrap,
// prlimit, the unprivileged user) vs unsandboxed (TALON_SANDBOX=off) in the same run, rounds alternated;
// and the egress proxy's added latency on a loopback GET (through the proxy's socket vs direct, both on a
// fresh connection). Targets: sandbox start < 10 ms at p50, proxy < 1 ms. Last line: JSON.
import { chmodSync, chownSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, request } from 'node:http';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { printTable, summarize, timeSequential } from './support/stats.mjs';

const REPO_ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
const { Sandbox, EgressProxy, resolveSandboxIdentity } = await import(
  join(REPO_ROOT, 'libs/sandbox/dist/index.js')
);
const { createShellTool } = await import(join(REPO_ROOT, 'libs/dev-tools/dist/index.js'));
const { SsrfGuard } = await import(join(REPO_ROOT, 'libs/safety/dist/index.js'));
const SHELL_COUNT = Number(process.env.BENCH_COUNT ?? 150);
const PROXY_COUNT = SHELL_COUNT * 10;

const base = mkdtempSync(join(tmpdir(), 'talon-bench-sandbox-'));
chmodSync(base, 0o755);
const root = join(base, 'workspace');
mkdirSync(join(root, 'src'), { recursive: true });
for (let i = 0; i < 40; i++)
  writeFileSync(join(root, 'src', `file-${i}.ts`), `export const talon${i} = ${i};\n`.repeat(20));
const identity = resolveSandboxIdentity();
if (identity.dropFromRoot) {
  chownSync(root, identity.uid, identity.gid);
}

const sandboxed = Sandbox.create({ mode: 'on' });
if (sandboxed.status.mode !== 'bubblewrap')
  throw new Error(`sandbox unavailable: ${sandboxed.status.detail}`);
const tools = {
  off: createShellTool({ root, sandbox: Sandbox.create({ mode: 'off' }) }),
  on: createShellTool({ root, sandbox: sandboxed }),
};
const context = { callId: 'bench', signal: new AbortController().signal, grants: [], log: () => undefined };
const shell = (tool, command) => async () => {
  const result = await tool.execute({ command }, context);
  if (result.exitCode !== 0) throw new Error(`${command} failed: ${result.stderr}`);
};

const samples = { trueOff: [], trueOn: [], grepOff: [], grepOn: [] };
// CPU time of reaped children (bubblewrap and everything it waited for) from /proc/self/stat, in ms: the
// steadiest figure on a loaded machine, where wall-clock times are mostly waiting for a core.
const TICK_MS = 10;
const childCpuMs = () => {
  const fields = readFileSync('/proc/self/stat', 'utf8').split(') ')[1].split(' ');
  return (Number(fields[13]) + Number(fields[14])) * TICK_MS;
};
const cpu = { trueOff: 0, trueOn: 0, grepOff: 0, grepOn: 0 };
const timed = async (key, fn, count, warmup) => {
  for (let i = 0; i < warmup; i++) await fn();
  const before = childCpuMs();
  samples[key].push(...(await timeSequential(fn, count, 0)));
  cpu[key] += childCpuMs() - before;
};
const rounds = 3;
for (let round = 0; round < rounds; round++) {
  const warmup = round === 0 ? 10 : 2;
  await timed('trueOff', shell(tools.off, 'true'), SHELL_COUNT / rounds, warmup);
  await timed('trueOn', shell(tools.on, 'true'), SHELL_COUNT / rounds, warmup);
  await timed('grepOff', shell(tools.off, 'grep -rc talon1 src'), SHELL_COUNT / rounds, warmup);
  await timed('grepOn', shell(tools.on, 'grep -rc talon1 src'), SHELL_COUNT / rounds, warmup);
}

// The proxy: a loopback upstream, reached directly and through EgressProxy's Unix socket.
const upstream = createServer((_request, response) => response.end('ok'));
await new Promise((resolvePromise) => upstream.listen(0, '127.0.0.1', resolvePromise));
const port = upstream.address().port;
const socketPath = join(base, 'proxy.sock');
const proxy = new EgressProxy({
  hosts: [`127.0.0.1:${port}`],
  guard: new SsrfGuard({ allowlist: [{ cidr: '127.0.0.1/32', ports: [port] }] }),
});
await proxy.listen(socketPath);
const get = (options) => () =>
  new Promise((resolvePromise, rejectPromise) => {
    const req = request({ agent: false, ...options }, (res) => {
      res.resume();
      res.on('end', () =>
        res.statusCode === 200 ? resolvePromise() : rejectPromise(new Error(`status ${res.statusCode}`)),
      );
    });
    req.on('error', rejectPromise);
    req.end();
  });
const direct = get({ host: '127.0.0.1', port, path: '/bench' });
const proxied = get({
  socketPath,
  path: `http://127.0.0.1:${port}/bench`,
  headers: { host: `127.0.0.1:${port}` },
});
const directSamples = [];
const proxySamples = [];
for (let round = 0; round < rounds; round++) {
  directSamples.push(...(await timeSequential(direct, PROXY_COUNT / rounds, 100)));
  proxySamples.push(...(await timeSequential(proxied, PROXY_COUNT / rounds, 100)));
}
await proxy.close();
upstream.close();
rmSync(base, { recursive: true, force: true });

const stats = Object.fromEntries(
  Object.entries(samples).map(([key, values]) => [
    key,
    {
      ...summarize(values),
      childCpuMsPerCall: Math.round((cpu[key] / values.length) * 100) / 100,
      childCpuMsTotal: cpu[key],
    },
  ]),
);
const directStats = summarize(directSamples);
const proxyStats = summarize(proxySamples);
const loadAverage = readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ');
printTable([
  { path: 'shell `true`, unsandboxed (baseline)', ...stats.trueOff },
  { path: 'shell `true`, bubblewrap sandbox', ...stats.trueOn },
  { path: 'shell `grep -rc` (40 files), unsandboxed (baseline)', ...stats.grepOff },
  { path: 'shell `grep -rc` (40 files), bubblewrap sandbox', ...stats.grepOn },
]);
printTable([
  { path: 'loopback GET, direct (baseline)', ...directStats },
  { path: 'loopback GET through the egress proxy', ...proxyStats },
]);
console.log(`load average during the run: ${loadAverage}`);
const round = (value) => Math.round(value * 1000) / 1000;
console.log(
  JSON.stringify({
    benchmark: 'sandbox',
    shellCalls: SHELL_COUNT,
    proxyRequests: PROXY_COUNT,
    sandboxUid: identity.uid,
    loadAverage,
    shell: stats,
    proxy: { direct: directStats, proxied: proxyStats },
    addedMsP50: {
      shellTrue: round(stats.trueOn.p50 - stats.trueOff.p50),
      shellGrep: round(stats.grepOn.p50 - stats.grepOff.p50),
      proxy: round(proxyStats.p50 - directStats.p50),
    },
    addedChildCpuMsPerCall: {
      shellTrue: round(stats.trueOn.childCpuMsPerCall - stats.trueOff.childCpuMsPerCall),
      shellGrep: round(stats.grepOn.childCpuMsPerCall - stats.grepOff.childCpuMsPerCall),
    },
    targetsMet: {
      sandboxUnder10ms: stats.trueOn.p50 - stats.trueOff.p50 < 10,
      proxyUnder1ms: proxyStats.p50 - directStats.p50 < 1,
    },
  }),
);
