import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { existsSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { createParser, type EventSourceMessage } from 'eventsource-parser';
import { REPO_ROOT, waitUntil } from '@talon/testing';
import { startConsoleStack, type ConsoleStack } from './console-stack.js';

/** Debian's chromium, as CI installs it (`apt-get install chromium`). */
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const BUILT = join(REPO_ROOT, 'apps/console/dist/index.html');
/** Screenshots always land in the test output; `TALON_CONSOLE_SCREENSHOTS=docs` also refreshes docs/console/. */
const OUTPUT = join(REPO_ROOT, '.talon/console-screenshots');
const DOCS = process.env.TALON_CONSOLE_SCREENSHOTS === 'docs' ? join(REPO_ROOT, 'docs/console') : undefined;
const HOSTILE = '<img src=x onerror="window.__pwned=1">';

/** Reads a session's SSE stream from Node (as the console does: fetch with the bearer header). */
function readEvents(url: string, token: string, lastEventId?: string) {
  const abort = new AbortController();
  const messages: EventSourceMessage[] = [];
  const parser = createParser({ onEvent: (message) => void messages.push(message) });
  let open = false;
  const done = (async () => {
    const response = await fetch(url, {
      headers: { authorization: `Bearer ${token}`, ...(lastEventId ? { 'last-event-id': lastEventId } : {}) },
      signal: abort.signal,
    });
    open = response.ok;
    const decoder = new TextDecoder();
    for await (const chunk of response.body as unknown as AsyncIterable<Uint8Array>)
      parser.feed(decoder.decode(chunk, { stream: true }));
  })().catch(() => undefined);
  return {
    messages,
    isOpen: () => open,
    async close() {
      abort.abort();
      await done;
    },
  };
}

describe('the web console in headless Chromium against a real stack', () => {
  let stack: ConsoleStack;
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  let sessionId: string;
  const pageErrors: string[] = [];

  async function shot(name: string): Promise<void> {
    await page.screenshot({ path: join(OUTPUT, `${name}.png`) });
    if (DOCS) await page.screenshot({ path: join(DOCS, `${name}.png`) });
  }

  beforeAll(async () => {
    expect(existsSync(BUILT)).toBe(true);
    await mkdir(OUTPUT, { recursive: true });
    if (DOCS) await mkdir(DOCS, { recursive: true });
    // Settled both ways, so a browser that fails to start does not leave the stack's processes running.
    const [started, launched] = await Promise.allSettled([
      startConsoleStack(),
      chromium.launch({
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
      }),
    ]);
    if (started.status === 'fulfilled') stack = started.value;
    if (launched.status === 'fulfilled') browser = launched.value;
    if (started.status === 'rejected') throw started.reason;
    if (launched.status === 'rejected') throw launched.reason;
    context = await browser.newContext({ viewport: { width: 1280, height: 800 }, colorScheme: 'light' });
    page = await context.newPage();
    page.on('pageerror', (error) => pageErrors.push(String(error)));
    page.on('console', (message) => {
      // A CSP violation is reported on the console: it would mean the page tried inline code.
      if (/Content Security Policy/i.test(message.text())) pageErrors.push(message.text());
    });
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
    await stack?.close();
  });

  it('serves the page with a CSP and cache headers, and asks for a token', async () => {
    const response = await page.goto(stack.url + '/');
    expect(response!.status()).toBe(200);
    expect(response!.headers()['content-security-policy']).toContain("script-src 'self'");
    expect(response!.headers()['cache-control']).toBe('no-cache');
    const script = await page.locator('script[type=module]').getAttribute('src');
    const asset = await fetch(stack.url + script!);
    expect(asset.headers.get('cache-control')).toMatch(/max-age=31536000.*immutable/);
    // A token in the URL is refused by the front door, even for the page.
    expect((await fetch(`${stack.url}/?token=${stack.token}`)).status).toBe(401);
    await page.getByLabel('API token').fill('talon_not-a-real-token');
    await page.getByRole('button', { name: 'Log in' }).click();
    await expect(page.locator('.error').textContent()).resolves.toContain('UNAUTHENTICATED');
    await shot('login');
  });

  it('logs in and shows every service up', async () => {
    await page.getByLabel('API token').fill(stack.token);
    await page.getByRole('button', { name: 'Log in' }).click();
    for (const service of ['orchestrator', 'tool-worker', 'skill-service'])
      await page.locator(`tr[data-service="${service}"][data-state="up"]`).waitFor({ timeout: 20_000 });
    expect(Number(await page.getByTestId('catalog-size').textContent())).toBeGreaterThan(3);
    await shot('overview');
  });

  it('sends a message and shows the tool call live; a hostile output stays text', async () => {
    await page.goto(stack.url + '/#/sessions');
    await page.getByRole('button', { name: 'New session' }).click();
    await page.waitForURL(/#\/sessions\/[0-9a-f-]{36}$/);
    sessionId = page.url().split('/').at(-1)!;
    await page.getByTestId('stream-state').filter({ hasText: 'live' }).waitFor();
    stack.llm.enqueue(
      { text: 'Let me echo that.', toolCalls: [{ name: 'echo', arguments: { message: HOSTILE } }] },
      { text: `The echo said ${HOSTILE}` },
    );
    await page.getByLabel('Message').fill('Please echo a tricky string');
    await page.getByRole('button', { name: 'Send' }).click();
    await page.locator('[data-kind="tool"][data-tool="echo"][data-state="ok"]').waitFor({ timeout: 20_000 });
    await page.locator('[data-kind="note"]', { hasText: 'turn finished' }).waitFor({ timeout: 20_000 });
    await page
      .locator('[data-kind="tool"] summary', { hasText: 'output' })
      .first()
      .waitFor({ timeout: 20_000 });
    await page.locator('[data-kind="tool"] summary', { hasText: 'output' }).first().click();
    const timeline = page.getByTestId('timeline');
    await expect(timeline.textContent()).resolves.toContain(HOSTILE);
    expect(await timeline.locator('img').count()).toBe(0);
    expect(await page.evaluate(() => (window as unknown as { __pwned?: number }).__pwned)).toBeUndefined();
    await shot('session');
  });

  it('approves a call from the inbox and the turn finishes', async () => {
    stack.llm.enqueue(
      {
        toolCalls: [
          { name: 'http', arguments: { url: stack.targetUrl, method: 'POST', json: { from: 'console' } } },
        ],
      },
      { text: 'Posted.' },
    );
    await page.getByLabel('Message').fill('Post the note to the hook');
    await page.getByRole('button', { name: 'Send' }).click();
    await page
      .locator('[data-kind="tool"][data-tool="http"][data-state="waiting"]')
      .waitFor({ timeout: 20_000 });
    await page.goto(stack.url + '/#/approvals');
    const approval = page.locator('li.approval[data-tool="http"]');
    await approval.waitFor({ timeout: 10_000 });
    await shot('approvals');
    await approval.getByRole('button', { name: 'Approve', exact: true }).click();
    await approval.waitFor({ state: 'detached', timeout: 10_000 });
    await waitUntil(() => stack.targetRequests.length === 1, 20_000, 'the approved POST');
    expect(JSON.parse(stack.targetRequests[0]!)).toEqual({ from: 'console' });
    await page.goto(`${stack.url}/#/sessions/${sessionId}`);
    await page.locator('[data-kind="tool"][data-tool="http"][data-state="ok"]').waitFor({ timeout: 20_000 });
    await page.locator('[data-kind="assistant"]', { hasText: 'Posted.' }).waitFor({ timeout: 20_000 });
  });

  it('cancels a running turn from the session view: the button shows while it runs and the turn ends aborted', async () => {
    // A slow tool keeps the turn running; no second model reply is queued (a cancelled turn asks for none).
    stack.llm.enqueue({ toolCalls: [{ name: 'echo', arguments: { message: 'slow', delayMs: 10_000 } }] });
    const cancel = page.getByRole('button', { name: 'Cancel turn' });
    expect(await cancel.count()).toBe(0);
    await page.getByLabel('Message').fill('Echo slowly');
    await page.getByRole('button', { name: 'Send' }).click();
    await page
      .locator('[data-kind="tool"][data-tool="echo"][data-state="running"]')
      .waitFor({ timeout: 20_000 });
    await cancel.waitFor({ timeout: 5_000 });
    await shot('session-cancel');
    const started = Date.now();
    await cancel.click();
    await page
      .locator('[data-kind="note"]', { hasText: 'turn finished: aborted' })
      .waitFor({ timeout: 8_000 });
    // Well before the 10 s the tool would take: the cancel stopped it.
    expect(Date.now() - started).toBeLessThan(8_000);
    await page.locator('[data-kind="tool"][data-tool="echo"][data-state="failed"]').last().waitFor();
    await cancel.waitFor({ state: 'detached', timeout: 10_000 });
  });

  it('runs a tool from its schema form in the catalog', async () => {
    await page.goto(stack.url + '/#/catalog');
    await page.getByRole('button', { name: 'echo', exact: true }).click();
    const detail = page.getByTestId('tool-detail');
    await detail.getByLabel(/^message/).fill('from the form');
    await detail.getByRole('button', { name: 'Run' }).click();
    await expect(detail.getByTestId('tool-result').textContent()).resolves.toContain('from the form');
    await shot('catalog');
  });

  it('explains which skills a message would activate', async () => {
    await page.goto(stack.url + '/#/skills');
    await page.getByLabel('Which skills would a message activate?').fill('Write the release notes for 2.3');
    await page.getByRole('button', { name: 'Explain' }).click();
    await page
      .getByTestId('explain-result')
      .locator('[data-skill="release-notes"]')
      .waitFor({ timeout: 10_000 });
    await expect(page.getByTestId('skills').textContent()).resolves.toContain('TRUSTED');
    await shot('skills');
  });

  it('pages the audit log and verifies the chain', async () => {
    await page.goto(stack.url + '/#/audit');
    await page.getByTestId('audit-records').locator('td', { hasText: 'approval.decision' }).first().waitFor();
    await page.getByRole('button', { name: 'Verify the chain' }).click();
    await expect(page.getByTestId('audit-verify').textContent()).resolves.toMatch(/^intact: \d+ records/);
    await shot('audit');
  });

  it('fits a phone and has a dark theme', async () => {
    await page.getByRole('button', { name: 'Switch theme' }).click();
    await page.goto(`${stack.url}/#/sessions/${sessionId}`);
    await page.locator('[data-kind="tool"][data-tool="http"]').waitFor();
    await shot('session-dark');
    await page.setViewportSize({ width: 390, height: 844 });
    await page.goto(stack.url + '/#/overview');
    await page.locator('tr[data-service="orchestrator"]').waitFor();
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(400);
    await shot('overview-phone');
    await page.setViewportSize({ width: 1280, height: 800 });
  });

  it('a cut session stream resumes with Last-Event-ID: the missed events once, none twice', async () => {
    const url = `${stack.url}/v1/sessions/${sessionId}/events`;
    const first = readEvents(url, stack.token);
    await waitUntil(() => first.isOpen(), 10_000, 'the stream open');
    stack.llm.enqueue({ text: 'First answer.' });
    await stack.api('chat.send', { sessionId, message: 'one' });
    await waitUntil(
      () => first.messages.some((message) => message.event === 'turn_finished'),
      20_000,
      'turn 1 on the stream',
    );
    await first.close();
    const lastId = first.messages.at(-1)!.id!;
    expect(lastId).toMatch(/\.\d+$/);
    // While no stream is open, a second turn runs.
    stack.llm.enqueue(
      { toolCalls: [{ name: 'echo', arguments: { message: 'missed' } }] },
      { text: 'Second answer.' },
    );
    await stack.api('chat.send', { sessionId, message: 'two' });
    const resumed = readEvents(url, stack.token, lastId);
    await waitUntil(
      () => resumed.messages.some((message) => message.event === 'turn_finished'),
      20_000,
      'turn 2 replayed',
    );
    await resumed.close();
    const ids = resumed.messages.map((message) => message.id);
    expect(new Set(ids).size).toBe(ids.length);
    expect(ids).not.toContain(lastId);
    // Ids count up per orchestrator: the replay starts right after the last one seen.
    const seq = (id: string | undefined) => Number(id!.split('.').at(-1));
    expect(seq(ids[0])).toBeGreaterThan(seq(lastId));
    expect(resumed.messages.map((message) => message.event)).toEqual(
      expect.arrayContaining([
        'turn_started',
        'tool_call_started',
        'tool_call_finished',
        'message',
        'turn_finished',
      ]),
    );
    // An id this orchestrator never gave cannot be resumed: the stream says so first.
    const stale = readEvents(url, stack.token, 'ffffffff.0-12');
    await waitUntil(() => stale.messages.length > 0, 10_000, 'the reset event');
    await stale.close();
    expect(stale.messages[0]!.event).toBe('stream_reset');
  });

  it('a revoked token sends the page back to the login with the reason', async () => {
    const created = await stack.api<{ id: string; token: string }>('tokens.create', {
      name: 'console-test',
      scope: 'read',
    });
    const tab = await context.newPage();
    await tab.goto(stack.url + '/');
    await tab.getByLabel('API token').fill(created.token);
    await tab.getByRole('button', { name: 'Log in' }).click();
    await tab.locator('tr[data-service="orchestrator"]').waitFor({ timeout: 20_000 });
    await stack.api('tokens.revoke', { id: created.id });
    await tab.getByTestId('logout-reason').waitFor({ timeout: 20_000 });
    await expect(tab.getByTestId('logout-reason').textContent()).resolves.toContain('UNAUTHENTICATED');
    expect(await tab.evaluate(() => sessionStorage.getItem('talon.token'))).toBeNull();
    await tab.close();
    expect(pageErrors).toEqual([]);
  });
});
