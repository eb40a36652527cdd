// Quick measurement of the pipeline's hot-path stages for `echo` (not a benchmark harness):
// node libs/tool-runtime/scripts/measure-stages.mjs  (after `npx tsc -b libs/builtin-tools`)
import { performance } from 'node:perf_hooks';
import { NOOP_OUTPUT_SAFETY, ToolPipeline, ToolRegistry } from '../dist/index.js';
import { createEchoTool } from '../../builtin-tools/dist/index.js';

const registry = new ToolRegistry();
registry.register(createEchoTool());
const pipeline = new ToolPipeline(registry, { safety: NOOP_OUTPUT_SAFETY });
const grants = [
  { secretName: 'k', value: 'sk-test-value', hostPatterns: ['x'], location: { kind: 'bearer' } },
];

function percentile(sorted, p) {
  return sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))];
}

function measure(label, fn, iterations = 200_000) {
  for (let index = 0; index < 20_000; index += 1) fn(index); // warm-up
  const samples = new Float64Array(iterations);
  for (let index = 0; index < iterations; index += 1) {
    const started = performance.now();
    fn(index);
    samples[index] = (performance.now() - started) * 1000;
  }
  const sorted = Array.from(samples).sort((a, b) => a - b);
  // Per-sample timing sits near the timer's resolution; a batch gives the honest mean.
  const batchStarted = performance.now();
  for (let index = 0; index < iterations; index += 1) fn(index);
  const batchMeanUs = ((performance.now() - batchStarted) * 1000) / iterations;
  return {
    label,
    p50Us: +percentile(sorted, 0.5).toFixed(2),
    p99Us: +percentile(sorted, 0.99).toFixed(2),
    meanUs: +batchMeanUs.toFixed(3),
  };
}

// Params arrive fresh from JSON on every call in production; build them per call here too.
const prepared = pipeline.prepareCall({ tool: 'echo', params: { message: 'hello' }, callId: 'c' });
const rows = [
  measure('prepareCall (lookup+limits+validate, fresh params)', (index) =>
    pipeline.prepareCall({
      tool: 'echo',
      params: { message: `hello ${index}` },
      callId: 'c',
      sessionId: 's',
      grants,
    }),
  ),
  measure('postProcessOutput (noop safety, 11-byte output)', () =>
    pipeline.postProcessOutput(prepared, { output: 'hello world', durationMs: 0 }),
  ),
  measure('prepareCall + postProcessOutput', (index) => {
    const call = pipeline.prepareCall({
      tool: 'echo',
      params: { message: `hello ${index}` },
      callId: 'c',
      grants,
    });
    pipeline.postProcessOutput(call, { output: call.params.message, durationMs: 0 });
  }),
];

// The whole local pipeline including the timeout machinery and a real (async) execute.
const iterations = 50_000;
for (let index = 0; index < 5_000; index += 1)
  await pipeline.run({ tool: 'echo', params: { message: 'warm' } });
const samples = [];
for (let index = 0; index < iterations; index += 1) {
  const started = performance.now();
  await pipeline.run({ tool: 'echo', params: { message: `hello ${index}` }, callId: 'c' });
  samples.push((performance.now() - started) * 1000);
}
samples.sort((a, b) => a - b);
rows.push({
  label: 'run() in-process (prepare+timeout+execute+post)',
  p50Us: +percentile(samples, 0.5).toFixed(2),
  p99Us: +percentile(samples, 0.99).toFixed(2),
  meanUs: +(samples.reduce((s, v) => s + v, 0) / samples.length).toFixed(2),
});

console.table(rows);
console.log(JSON.stringify(rows));
