// `pnpm bench console`: the web console in headless Chromium. First load (bundle size gzip, time until the
// session page is interactive) and a session page receiving 10,000 events (frame time p95, JS heap), beside
// a baseline page in the same run that appends one DOM row per event without virtualisation.
// The API is a small local stand-in (envelopes and an SSE stream of synthetic events): this measures the
// browser side, not the orchestrator.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { chromium } from 'playwright-core';
import { percentile, printTable } from './support/stats.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const dist = join(root, 'apps/console/dist');
const EVENTS = Number(process.env.BENCH_CONSOLE_EVENTS ?? 10_000);
const rows = EVENTS / 2;
const BURST = 100;
const SESSION = '00000000-0000-4000-8000-000000000001';
if (!existsSync(join(dist, 'index.html'))) {
  console.error('Build the console first: pnpm build (or npm run build:console).');
  process.exit(2);
}
const { consoleStatic } = await import(join(root, 'apps/orchestrator/dist/console/console-static.js'));

const bundleBytes = readdirSync(join(dist, 'assets')).reduce(
  (sum, file) => sum + gzipSync(readFileSync(join(dist, 'assets', file))).length,
  0,
);

/** Half the events start a tool call, half finish it: EVENTS / 2 timeline rows. */
function* events() {
  for (let i = 0; i < EVENTS / 2; i++) {
    const base = { sessionId: SESSION, turnId: 'turn-1', callId: `call-${i}`, tool: 'echo' };
    yield { ...base, type: 'tool_call_started', params: { message: `message ${i}` } };
    yield { ...base, type: 'tool_call_finished', ok: true, durationMs: 1 };
  }
}

const serveConsole = consoleStatic(dist);
const server = createServer((request, response) => {
  const path = new URL(request.url, 'http://bench.invalid').pathname;
  if (path.startsWith('/baseline/')) {
    const file = join(
      root,
      'bench/support/console-baseline',
      path.slice('/baseline/'.length) || 'index.html',
    );
    response.writeHead(200, { 'content-type': file.endsWith('.js') ? 'text/javascript' : 'text/html' });
    return response.end(readFileSync(file));
  }
  if (path === `/v1/sessions/${SESSION}/events`) {
    response.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
    const all = [...events()];
    let sent = 0;
    // Bursts of 100 events per 16 ms: a busy session, not one giant chunk.
    const timer = setInterval(() => {
      const chunk = all.slice(sent, sent + BURST);
      sent += chunk.length;
      response.write(
        chunk.map((event) => `event: ${event.type}\ndata: ${JSON.stringify(event)}\n\n`).join(''),
      );
      if (sent >= all.length) clearInterval(timer);
    }, 16);
    request.on('close', () => clearInterval(timer));
    return;
  }
  if (path.startsWith('/v1/rpc/')) {
    const method = path.slice('/v1/rpc/'.length);
    const data =
      method === 'sessions.get'
        ? { id: SESSION, title: 'bench', autonomous: false, createdAt: '', updatedAt: '', messages: [] }
        : {};
    response.writeHead(200, { 'content-type': 'application/json' });
    return response.end(JSON.stringify({ ok: true, data }));
  }
  serveConsole(request, response, () => response.writeHead(404).end());
});
await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
const url = `http://127.0.0.1:${server.address().port}`;

const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
  headless: true,
  args: [
    '--no-sandbox',
    '--disable-gpu',
    '--disable-background-networking',
    '--disable-component-update',
    '--disable-sync',
    '--enable-precise-memory-info',
  ],
});

/** Records every frame's duration from the first paint on. */
const recordFrames = () => {
  window.__frames = [];
  let last = performance.now();
  const tick = (now) => {
    window.__frames.push(now - last);
    last = now;
    requestAnimationFrame(tick);
  };
  requestAnimationFrame(tick);
};

async function run(path, ready, done) {
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  await context.addInitScript(() => sessionStorage.setItem('talon.token', 'talon_bench'));
  await context.addInitScript(recordFrames);
  const page = await context.newPage();
  const started = performance.now();
  await page.goto(url + path);
  await page.locator(ready).first().waitFor({ timeout: 30_000 });
  const interactiveMs = performance.now() - started;
  // Frames while the events stream in, not those of loading the page.
  await page.evaluate(() => (window.__frames = []));
  await page.waitForFunction(done, rows, { timeout: 120_000, polling: 100 });
  const frames = await page.evaluate(() => window.__frames.slice(1));
  if (frames.length < 20)
    throw new Error(`only ${frames.length} frames recorded: the run was too short to judge`);
  const heap = await page.evaluate(() => performance.memory?.usedJSHeapSize ?? 0);
  await context.close();
  return {
    interactiveMs: Math.round(interactiveMs),
    frameP50: Math.round(percentile(frames, 0.5) * 10) / 10,
    frameP95: Math.round(percentile(frames, 0.95) * 10) / 10,
    frames: frames.length,
    heapMiB: Math.round((heap / 1048576) * 10) / 10,
  };
}

const consoleRun = await run(
  `/#/sessions/${SESSION}`,
  '[data-testid="stream-state"]:text("live")',
  // The CSP forbids evaluating strings in the console page: the predicates are functions.
  (count) =>
    document.querySelector('.session p.muted')?.textContent.includes(`${count.toLocaleString('en-US')} rows`),
);
const baselineRun = await run(
  '/baseline/',
  '#count',
  (count) => document.getElementById('count').textContent === String(count),
);
await browser.close();
server.close();

printTable([
  { page: 'console session (virtualised)', ...consoleRun },
  { page: 'baseline: one DOM row per event', ...baselineRun },
]);
const ratio = (a, b) => Math.round((a / b) * 100) / 100;
console.log(
  JSON.stringify({
    benchmark: 'console',
    events: EVENTS,
    bundleGzipKiB: Math.round((bundleBytes / 1024) * 10) / 10,
    console: consoleRun,
    baseline: baselineRun,
    frameP95Ratio: ratio(consoleRun.frameP95, baselineRun.frameP95),
    heapRatio: ratio(consoleRun.heapMiB, baselineRun.heapMiB),
    targets: { bundleGzipKiB: 300, interactiveMs: 1000, frameP95: 32 },
  }),
);
