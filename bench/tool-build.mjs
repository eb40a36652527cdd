// The tool builder, in this process over the compiled libraries (no services): a scripted model answers with
// the source of tools-src/text-stats, and the builder runs its stages (model, source checks, capabilities, compile
// in a child process, schema in the sandbox, examples). Baseline: the same tool built ahead of time by
// tools-src/build.mjs. Measured: time per stage, compile time, cold start (transpile + compile + first worker,
// empty cache) and warm execute of the built tool against the ahead-of-time one.
// Because builds are reproducible, the built component has the sha256 of the ahead-of-time one: printed as a check.
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { REPO_ROOT } from './support/processes.mjs';
import { printTable, summarize, timeSequential } from './support/stats.mjs';

const COUNT = Number(process.env.BENCH_COUNT ?? 300);
const lib = (name) => import(pathToFileURL(join(REPO_ROOT, `libs/${name}/dist/index.js`)).href);
execFileSync(process.execPath, [join(REPO_ROOT, 'tools-src/build.mjs'), '--quiet', 'text-stats'], {
  cwd: REPO_ROOT,
  stdio: 'inherit',
});
execFileSync(process.execPath, [join(REPO_ROOT, 'node_modules/typescript/bin/tsc'), '-b', 'libs/wasm-host'], {
  cwd: REPO_ROOT,
  stdio: 'inherit',
});
const host = await lib('wasm-host');
const { ScriptedProvider } = await lib('llm');

const source = readFileSync(join(REPO_ROOT, 'tools-src/text-stats/text-stats.js'), 'utf8');
const aheadOfTime = readFileSync(join(REPO_ROOT, 'tools-src/text-stats/build/text-stats.wasm'));
const sha = (bytes) => createHash('sha256').update(bytes).digest('hex');
const base = mkdtempSync(join(tmpdir(), 'talon-bench-tool-build-'));
const loaderWithCache = (name) =>
  new host.ComponentToolLoader({
    compiler: new host.ComponentCompiler({ cacheDir: join(base, name) }),
    host: { httpClient: new host.FetchHostHttpClient(), workspaceRoot: base },
  });

const stages = [];
const builder = new host.ToolBuilder({
  model: new ScriptedProvider({ steps: [{ reply: { text: `\`\`\`js\n${source}\`\`\`` } }] }),
  wit: readFileSync(join(REPO_ROOT, 'wit/talon-tool.wit'), 'utf8'),
  compile: (text) =>
    host.compileInChildProcess(text, { script: join(REPO_ROOT, 'tools-src/compile-tool.mjs') }),
  loader: loaderWithCache('build-cache'),
  store: new host.BuiltToolsStore(join(base, 'built')),
});
const started = performance.now();
const report = await builder.build(
  {
    name: 'bench-stats',
    description: 'Count words.',
    examples: [{ params: { text: 'a b b' }, expect: { words: 3 } }],
  },
  { onEvent: (event) => event.durationMs !== undefined && stages.push(event) },
);
const totalMs = performance.now() - started;
if (report.status !== 'ready') throw new Error(`the build failed: ${report.reason}`);
const built = readFileSync(join(base, 'built', 'bench-stats', report.version, 'bench-stats.wasm'));

const capabilities = host.parseCapabilities(
  JSON.parse(readFileSync(join(REPO_ROOT, 'tools-src/text-stats/text-stats.capabilities.json'), 'utf8')),
);
async function coldAndWarm(name, bytes) {
  const loader = loaderWithCache(`${name}-cache`);
  const t0 = performance.now();
  const version = await loader.loadVersion({ bytes, capabilities, version: '1.0.0' }, name);
  const coldMs = performance.now() - t0;
  const tool = loader.toolFor(name, version);
  const context = { callId: 'bench', signal: new AbortController().signal, grants: [], log: () => undefined };
  const warm = summarize(
    await timeSequential(() => tool.execute({ text: 'the quick brown fox' }, context), COUNT, 50),
  );
  await version.pool.close();
  return { coldMs: Math.round(coldMs), warm };
}
const builtRun = await coldAndWarm('built', built);
const aotRun = await coldAndWarm('ahead-of-time', aheadOfTime);
rmSync(base, { recursive: true, force: true });

console.log('\nbuild stages (scripted model)');
printTable(stages.map((event) => ({ stage: event.stage, ms: event.durationMs })));
console.log(`total build ${Math.round(totalMs)} ms\n`);
printTable([
  {
    tool: 'built by tool_build',
    sha256: sha(built).slice(0, 12),
    cold_ms: builtRun.coldMs,
    ...builtRun.warm,
  },
  {
    tool: 'ahead of time (tools-src)',
    sha256: sha(aheadOfTime).slice(0, 12),
    cold_ms: aotRun.coldMs,
    ...aotRun.warm,
  },
]);
console.log(
  JSON.stringify({
    bench: 'tool-build',
    stagesMs: Object.fromEntries(stages.map((event) => [event.stage, event.durationMs])),
    totalBuildMs: Math.round(totalMs),
    sameSha256AsAheadOfTime: sha(built) === sha(aheadOfTime),
    built: builtRun,
    aheadOfTime: aotRun,
    warmP50Ratio: Math.round((builtRun.warm.p50 / aotRun.warm.p50) * 100) / 100,
  }),
);
