// Schedule parsing: p50/p99 of `parseSchedule` over the phrase set of the tests, and of the intent check
// on 1 KiB messages without a schedule (the chat path runs it on every message; target < 0.2 ms). The
// baseline, in the same run, is one plain regex test over the same text — the least a chat path could do.
// Second half: a chat turn caught by the schedule intercept against a turn of the scripted model, both
// through chat.send on a real orchestrator (NATS with authorization, PostgreSQL): round trip, model calls
// and orchestrator CPU per turn (utime+stime from /proc). BENCH_CHAT=0 skips it.
// Uses the BUILT library: run `npx tsc -b libs/schedule` first. Last line: one JSON object.
import { closeSync, existsSync, openSync, readFileSync, readSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { hasScheduleIntent, parseSchedule } from '../libs/schedule/dist/index.js';
import { percentile, printTable, summarize } from './support/stats.mjs';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 2);
const fixture = JSON.parse(
  readFileSync(new URL('../libs/schedule/test/schedule-phrases.json', import.meta.url), 'utf8'),
);
const phrases = fixture.phrases.map(([text]) => text);
const options = { timezone: fixture.timezone, now: fixture.now, hands: fixture.hands };

// About 1 KiB of ordinary chat with no schedule words, in English and in Chinese.
const ENGLISH_KIB =
  'Could you look over this pull request? The change moves the retry logic out of the HTTP client and into a small policy object, so that callers can pass their own backoff. I am not sure the jitter is right, and the tests only cover the happy path. '
    .repeat(4)
    .slice(0, 1024);
const CHINESE_KIB =
  '请帮我看看这段代码：重试逻辑从客户端里移到了一个单独的策略对象，调用方可以传入自己的退避参数。我不确定抖动算得对不对，测试也只覆盖了正常路径。'
    .repeat(8)
    .slice(0, 342);
for (const message of [ENGLISH_KIB, CHINESE_KIB]) {
  if (hasScheduleIntent(message))
    throw new Error(`the 1 KiB message must carry no schedule intent: ${message.slice(0, 60)}`);
}
const BASELINE = /remind|提醒/i;

// Run-queue wait of this thread in nanoseconds (Linux, /proc/self/schedstat); 0 elsewhere. Subtracting it
// gives on-CPU time, so that other processes on a shared machine do not count as parse time (as in
// skill-select). GC pauses stay included.
const schedstatFd = existsSync('/proc/self/schedstat') ? openSync('/proc/self/schedstat', 'r') : undefined;
const schedBuffer = Buffer.alloc(128);
function runQueueWaitNs() {
  if (schedstatFd === undefined) return 0;
  const length = readSync(schedstatFd, schedBuffer, 0, schedBuffer.length, 0);
  return Number(schedBuffer.toString('latin1', 0, length).split(' ')[1]);
}

/** Samples `fn` over `inputs` round-robin for about `seconds`, one timed call per sample (on-CPU ms). */
function sample(fn, inputs, seconds) {
  for (let i = 0; i < 2000; i++) fn(inputs[i % inputs.length]);
  const samples = [];
  const deadline = performance.now() + seconds * 1000;
  for (let i = 0; performance.now() < deadline; i++) {
    const input = inputs[i % inputs.length];
    const waitBefore = runQueueWaitNs();
    const started = performance.now();
    fn(input);
    const elapsed = performance.now() - started;
    samples.push(Math.max(0, elapsed - (runQueueWaitNs() - waitBefore) / 1e6));
  }
  // Microsecond-scale calls: keep four decimals of a millisecond so the baseline does not round to 0.
  const round = (value) => Math.round(value * 10_000) / 10_000;
  const mean = samples.reduce((sum, value) => sum + value, 0) / samples.length;
  return {
    n: samples.length,
    p50: round(percentile(samples, 0.5)),
    p99: round(percentile(samples, 0.99)),
    mean: round(mean),
  };
}

const kib = [ENGLISH_KIB, CHINESE_KIB];
const rows = [
  {
    case: `parse, ${phrases.length} phrases`,
    ...sample((text) => parseSchedule(text, options), phrases, SECONDS),
  },
  { case: 'baseline regex, phrases', ...sample((text) => BASELINE.test(text), phrases, SECONDS / 4) },
  { case: 'intent, 1 KiB without', ...sample(hasScheduleIntent, kib, SECONDS / 2) },
  { case: 'baseline regex, 1 KiB', ...sample((text) => BASELINE.test(text), kib, SECONDS / 4) },
  { case: 'parse, 1 KiB without', ...sample((text) => parseSchedule(text, options), kib, SECONDS / 2) },
];
printTable(
  rows.map(({ case: name, n, p50, p99, mean }) => ({
    case: name,
    n,
    'p50 ms': p50,
    'p99 ms': p99,
    'mean ms': mean,
  })),
);
if (schedstatFd !== undefined) closeSync(schedstatFd);
const [parse, baselinePhrases, intent, baselineKib, parseKib] = rows;
const chat =
  process.env.BENCH_CHAT === '0' ? undefined : await chatTurns(Number(process.env.BENCH_TURNS ?? 100));
console.log(
  JSON.stringify({
    ...(chat ? { chat } : {}),
    benchmark: 'schedule-parse',
    phrases: phrases.length,
    parse: { p50: parse.p50, p99: parse.p99 },
    baselinePhrases: { p50: baselinePhrases.p50, p99: baselinePhrases.p99 },
    intentKib: { p50: intent.p50, p99: intent.p99 },
    baselineKib: { p50: baselineKib.p50, p99: baselineKib.p99 },
    parseKib: { p50: parseKib.p50, p99: parseKib.p99 },
    intentTargetMs: 0.2,
    intentWithinTarget: intent.p99 < 0.2,
    clock: schedstatFd === undefined ? 'wall' : 'on-cpu',
  }),
);

/** Intercepted reminder turns against scripted model turns on one orchestrator, interleaved. */
async function chatTurns(turns) {
  const { testing } = await import('./support/processes.mjs');
  const stateDir = await mkdtemp(join(tmpdir(), 'talon-bench-intercept-'));
  const script = join(stateDir, 'script.json');
  // The cheapest model turn there is: one scripted answer, no tools.
  await writeFile(
    script,
    JSON.stringify({ model: 'bench', loop: true, steps: [{ name: 'answer', reply: { text: 'Noted.' } }] }),
  );
  const [nats, database] = await Promise.all([
    testing.startNatsTestServer(),
    testing.createTestDatabase('talon_bench'),
  ]);
  const cleanUp = async () => {
    await Promise.all([nats.stop(), database.drop()]);
    await rm(stateDir, { recursive: true, force: true });
  };
  const orchestrator = await testing
    .startServiceProcess('orchestrator', {
      NATS_URL: nats.url,
      DATABASE_URL: database.url,
      TALON_STATE_DIR: stateDir,
      LOG_LEVEL: 'info',
      TALON_HTTP_PORT: String(await testing.findFreePort()),
      TALON_GRPC_PORT: String(await testing.findFreePort()),
      TALON_TIMEZONE: 'Asia/Shanghai',
      TALON_LLM_PROVIDER: 'scripted',
      TALON_LLM_SCRIPT: script,
    })
    .catch(async (error) => {
      await cleanUp();
      throw error;
    });
  const api = await testing.connectTalonApi(nats.url);
  const cpuMs = () => {
    const fields = readFileSync(`/proc/${orchestrator.child.pid}/stat`, 'utf8').split(') ')[1].split(' ');
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / 100;
  };
  const measured = {
    intercepted: { ms: [], cpu: 0, modelCalls: 0 },
    model: { ms: [], cpu: 0, modelCalls: 0 },
  };
  const WARMUP = 10;
  try {
    for (let i = 0; i < turns + WARMUP; i++) {
      for (const [kind, message] of [
        ['intercepted', '每天早上9点提醒我查房'],
        ['model', '请帮我总结一下这段代码的改动'],
      ]) {
        const { id } = await api.ok('sessions.create', {});
        const cpuBefore = cpuMs();
        const started = performance.now();
        const reply = await api.ok('chat.send', { sessionId: id, message });
        const elapsed = performance.now() - started;
        const expected = kind === 'intercepted' ? 'schedule_intercepted' : 'final_answer';
        if (reply.reason !== expected) throw new Error(`${kind} turn ended with ${reply.reason}`);
        if (i < WARMUP) continue;
        measured[kind].ms.push(elapsed);
        measured[kind].cpu += cpuMs() - cpuBefore;
        measured[kind].modelCalls += reply.iterations;
      }
    }
  } finally {
    await api.close();
    await orchestrator.kill();
    await cleanUp();
  }
  const intercepted = summarize(measured.intercepted.ms);
  const model = summarize(measured.model.ms);
  const cpuPerTurn = (entry) => Math.round((entry.cpu / turns) * 100) / 100;
  printTable([
    {
      turn: 'intercepted reminder',
      ...intercepted,
      'cpu ms/turn': cpuPerTurn(measured.intercepted),
      'model calls': measured.intercepted.modelCalls,
    },
    {
      turn: 'scripted model turn',
      ...model,
      'cpu ms/turn': cpuPerTurn(measured.model),
      'model calls': measured.model.modelCalls,
    },
  ]);
  return {
    turns,
    intercepted: {
      p50: intercepted.p50,
      p99: intercepted.p99,
      cpuMsPerTurn: cpuPerTurn(measured.intercepted),
      modelCalls: measured.intercepted.modelCalls,
    },
    model: {
      p50: model.p50,
      p99: model.p99,
      cpuMsPerTurn: cpuPerTurn(measured.model),
      modelCalls: measured.model.modelCalls,
    },
    ratioP50: Math.round((model.p50 / intercepted.p50) * 100) / 100,
    modelCallsSaved: measured.model.modelCalls - measured.intercepted.modelCalls,
  };
}
