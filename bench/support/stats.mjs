// Percentiles, warm-up, load and table printing shared by the benchmarks.
import { loadavg } from 'node:os';

/** Returns the q-quantile (0..1) of a list of numbers, nearest-rank. */
export function percentile(values, q) {
  const sorted = [...values].sort((a, b) => a - b);
  const index = Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1));
  return sorted[index];
}

/** p50/p99/mean in milliseconds, rounded to microseconds. */
export function summarize(samplesMs) {
  const round = (value) => Math.round(value * 1000) / 1000;
  const mean = samplesMs.reduce((sum, value) => sum + value, 0) / samplesMs.length;
  return {
    n: samplesMs.length,
    p50: round(percentile(samplesMs, 0.5)),
    p99: round(percentile(samplesMs, 0.99)),
    mean: round(mean),
  };
}

/** Times `fn` sequentially `count` times after `warmup` untimed runs; returns samples in ms. */
export async function timeSequential(fn, count, warmup = Math.min(200, count)) {
  for (let i = 0; i < warmup; i++) await fn(i);
  const samples = new Array(count);
  for (let i = 0; i < count; i++) {
    const started = performance.now();
    await fn(i);
    samples[i] = performance.now() - started;
  }
  return samples;
}

/**
 * Calls `fn` in batches until its p50 stops falling: a service's hot path is compiled by V8 over thousands
 * of calls (an orchestrator's CPU per call fell from 525 to 220 µs over its first 8,000 calls), so a fixed
 * 200-call warm-up measured half-cold code. Stops after `steadyBatches` batches in a row none of which beat
 * the best batch so far by more than `tolerance`, or at `maxCalls`; returns the calls made.
 */
export async function warmUntilSteady(
  fn,
  { batch = 500, tolerance = 0.02, steadyBatches = 3, maxCalls = 20_000 } = {},
) {
  let best = Infinity;
  let steady = 0;
  let calls = 0;
  while (calls < maxCalls && steady < steadyBatches) {
    const p50 = percentile(await timeSequential(fn, batch, 0), 0.5);
    calls += batch;
    if (p50 < best * (1 - tolerance)) steady = 0;
    else steady++;
    best = Math.min(best, p50);
  }
  return calls;
}

/** Prints the machine's load averages (1, 5, 15 min) as `<benchmark>: load average at start …` and returns them. */
export function loadAtStart(benchmark) {
  const load = loadavg().map((value) => Math.round(value * 100) / 100);
  console.log(`${benchmark}: load average at start ${load.join(' ')}`);
  return load;
}

/** Calls per second with `concurrency` callers calling `call` over and over for `ms`, and the calls made. */
export async function throughputFor(call, { concurrency, ms }) {
  const deadline = performance.now() + ms;
  let calls = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (performance.now() < deadline) {
        await call();
        calls += 1;
      }
    }),
  );
  return { calls, perSecond: (calls / (performance.now() - started)) * 1000 };
}

/** Prints rows of objects as an aligned table. */
export function printTable(rows) {
  const columns = Object.keys(rows[0]);
  const widths = columns.map((column) =>
    Math.max(column.length, ...rows.map((row) => String(row[column]).length)),
  );
  const line = (cells) => cells.map((cell, i) => String(cell).padEnd(widths[i])).join('  ');
  console.log(line(columns));
  for (const row of rows) console.log(line(columns.map((column) => row[column])));
}

/**
 * The median over rounds of each round's ratio of the q-quantiles of `a` and `b` (rounds measured back to
 * back, in alternating order). On a machine whose speed drifts between rounds (here ×2 within a minute)
 * this compares the sides at the same moment, where the ratio of pooled percentiles compares whatever
 * rounds happened to be slow. Rounded to two decimals.
 */
export function pairedRatio(roundsA, roundsB, q = 0.5) {
  const ratios = roundsA.map((round, index) => percentile(round, q) / percentile(roundsB[index], q));
  return Math.round(percentile(ratios, 0.5) * 100) / 100;
}

/**
 * Warms every side until its p50 stops falling ({@link warmUntilSteady}), then runs `rounds` rounds of `count`
 * sequential calls of every side, in an order rotated each round so no side always runs first; returns each
 * side's samples per round (`perRound`) and the calls each side took to warm (`warmUpCalls`). `steady`: options
 * of {@link warmUntilSteady}.
 */
export async function timeInterleavedRounds(sides, { rounds, count, warmup = 50, steady = {} }) {
  const names = Object.keys(sides);
  const perRound = Object.fromEntries(names.map((name) => [name, []]));
  const warmUpCalls = {};
  for (const name of names) warmUpCalls[name] = await warmUntilSteady(sides[name], steady);
  for (let round = 0; round < rounds; round++) {
    const order = names.map((_, index) => names[(index + round) % names.length]);
    for (const name of order) perRound[name].push(await timeSequential(sides[name], count, warmup));
  }
  return { perRound, warmUpCalls };
}
