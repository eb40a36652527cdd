import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { existsSync } from 'node:fs';
import { chmod, mkdtemp, rm } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { chromium, type Browser } from 'playwright-core';
import {
  createTestDatabase,
  findFreePort,
  startNatsTestServer,
  startServiceProcess,
  waitUntil,
  type NatsTestServer,
  type ServiceProcess,
  type TestDatabase,
} from '@talon/testing';
import { startOrchestratorUnderTest, type OrchestratorUnderTest } from './support/front-door-stack.js';

/** Debian's chromium, as CI installs it (`apt-get install chromium`). */
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

/**
 * A page on another loopback origin that tries every way a web page can reach a local API without a
 * token: a no-cors fetch (a "simple request" needs no preflight), a CORS fetch, an auto-submitted form
 * (text/plain and urlencoded), an image GET of an SSE stream, and a sendBeacon.
 */
function attackPage(api: string, marker: string): string {
  const command = JSON.stringify({ tool: 'shell', params: { command: `touch ${marker}` } });
  return `<!doctype html><html><body>
<form id="plain" method="POST" action="${api}/v1/rpc/tools.call" enctype="text/plain" target="sink">
  <input name='${command.slice(0, -2)}' value='"}}'>
</form>
<form id="urlencoded" method="POST" action="${api}/v1/rpc/tools.call" target="sink2">
  <input name="tool" value="shell"><input name="params" value='{"command":"touch ${marker}"}'>
</form>
<iframe name="sink"></iframe><iframe name="sink2"></iframe>
<img id="img" src="${api}/v1/sessions/00000000-0000-4000-8000-000000000000/events">
<script>
window.results = {};
(async () => {
  const body = ${JSON.stringify(command)};
  try { await fetch('${api}/v1/rpc/tools.call', { method: 'POST', mode: 'no-cors', body }); window.results.noCors = 'sent'; }
  catch (error) { window.results.noCors = String(error); }
  try { const r = await fetch('${api}/v1/rpc/tools.call', { method: 'POST', headers: { 'content-type': 'application/json' }, body }); window.results.cors = r.status; }
  catch (error) { window.results.cors = 'blocked'; }
  window.results.beacon = navigator.sendBeacon('${api}/v1/rpc/tools.call', body);
  document.getElementById('plain').submit();
  document.getElementById('urlencoded').submit();
  window.results.done = true;
})();
</script></body></html>`;
}

describe('a web page cannot drive the API (real Chromium)', () => {
  let nats: NatsTestServer;
  let database: TestDatabase;
  let orchestrator: OrchestratorUnderTest;
  let runner: ServiceProcess;
  let workspace: string;
  let page: Server;
  let browser: Browser;
  let pageUrl: string;

  beforeAll(async () => {
    [nats, database] = await Promise.all([startNatsTestServer(), createTestDatabase()]);
    workspace = await mkdtemp(join(tmpdir(), 'talon-browser-'));
    // mkdtemp makes it 0700: the sandbox user (Talon runs as root here) must be able to enter it.
    await chmod(workspace, 0o755);
    orchestrator = await startOrchestratorUnderTest(nats, {
      DATABASE_URL: database.url,
      TALON_STATE_DIR: workspace,
    });
    runner = await startServiceProcess('wasm-runner', {
      NATS_URL: nats.url,
      TALON_STATE_DIR: join(workspace, 'runner'),
      TALON_WORKSPACE_DIR: join(workspace, 'ws'),
    });
    // The shell tool is in the catalog and works for a real operator call: the page is the only thing missing a token.
    await waitUntil(
      async () => (await orchestrator.nats('tools.info', { name: 'shell' }, nats.bootstrapToken)).ok,
      20_000,
      'shell in the catalog',
    );
    const pagePort = await findFreePort();
    // "localhost" is another origin than "127.0.0.1" for the browser, on the same machine.
    pageUrl = `http://localhost:${pagePort}/`;
    const html = attackPage(orchestrator.httpUrl, join(workspace, 'ws', 'pwned'));
    page = createServer((_request, response) =>
      response.writeHead(200, { 'content-type': 'text/html' }).end(html),
    );
    await new Promise<void>((resolve) => page.listen(pagePort, '127.0.0.1', resolve));
    browser = await chromium.launch({
      executablePath: CHROMIUM,
      headless: true,
      args: [
        '--no-sandbox',
        '--disable-gpu',
        '--disable-quic',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
      ],
    });
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
    await new Promise((resolve) => page?.close(resolve));
    await Promise.all([orchestrator?.close(), runner?.stop()]);
    await Promise.all([nats?.stop(), database?.drop()]);
    await rm(workspace, { recursive: true, force: true });
  });

  it('runs nothing for a cross-origin page: no file written, no audit record of the call', async () => {
    expect(existsSync(CHROMIUM)).toBe(true);
    const context = await browser.newContext();
    const tab = await context.newPage();
    const statuses: number[] = [];
    tab.on('response', (response) => {
      if (response.url().startsWith(orchestrator.httpUrl)) statuses.push(response.status());
    });
    await tab.goto(pageUrl);
    await tab.waitForFunction(
      () => (window as unknown as { results: { done?: boolean } }).results.done === true,
      undefined,
      { timeout: 15_000 },
    );
    await tab.waitForTimeout(1_000);
    const results = await tab.evaluate(
      () => (window as unknown as { results: Record<string, unknown> }).results,
    );
    expect(results.cors).toBe('blocked');
    expect(statuses.length).toBeGreaterThan(0);
    for (const status of statuses) expect([401, 403, 415]).toContain(status);
    await context.close();
    expect(existsSync(join(workspace, 'ws', 'pwned'))).toBe(false);
    const db = new pg.Client({ connectionString: database.url });
    await db.connect();
    try {
      const { rows } = await db.query("SELECT count(*)::int AS n FROM audit_event WHERE tool = 'shell'");
      expect(rows[0].n).toBe(0);
    } finally {
      await db.end();
    }
    // The same call with a token does run: the refusals above are the front door, not a broken tool.
    const real = await orchestrator.http(
      'tools.call',
      { tool: 'shell', params: { command: 'echo ok' } },
      nats.bootstrapToken,
    );
    expect(real.status).toBe(200);
    // The command itself ran (a sandbox that cannot start still answers 200 with bubblewrap's exit code).
    expect(real.body).toMatchObject({ ok: true, data: { output: { exitCode: 0, stdout: 'ok\n' } } });
  });
});
