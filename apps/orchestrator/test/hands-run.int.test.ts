import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type pg from 'pg';
import type { ChatSendReply, HandInstancesReply, HandRun, JobEvent } from '@talon/contracts';
import { REPO_ROOT, waitUntil, type TalonApiClient, type TalonApiError } from '@talon/testing';
import type { LlmTestServer } from '../../../libs/llm/test/support/index.js';
import { startTalonStack, type TalonStack } from './support/talon-stack.js';

const PAGE =
  '<html><head><title>Ward round</title></head><body><h1>Ward round checklist</h1><p>Check the drips at nine.</p></body></html>';

/** The last tool result the model was sent (what the previous tool call returned). */
function lastToolResult(body: Record<string, unknown>): string {
  const messages = body.messages as Array<{ role: string; content: unknown }>;
  const tool = [...messages].reverse().find((message) => message.role === 'tool');
  return typeof tool?.content === 'string' ? tool.content : JSON.stringify(tool?.content ?? '');
}

describe('hands run as jobs with the scripted model (real NATS, PostgreSQL, processes)', () => {
  let stack: TalonStack;
  let llm: LlmTestServer;
  let api: TalonApiClient;
  let sql: pg.Client;
  let site: Server;
  let base: string;
  const hung: Array<{ closed: boolean }> = [];

  async function errorOf(method: string, payload: unknown): Promise<TalonApiError> {
    const reply = await api.call(method, payload);
    if (reply.ok) throw new Error(`${method} succeeded: ${JSON.stringify(reply.data)}`);
    return reply.error as TalonApiError;
  }

  async function memory(path: string): Promise<string | undefined> {
    const { rows } = await sql.query<{ content: string }>(
      'SELECT content FROM memory_document WHERE path = $1',
      [path],
    );
    return rows[0]?.content;
  }

  beforeAll(async () => {
    site = createServer((request, response) => {
      if (request.url === '/hang') {
        const entry = { closed: false };
        hung.push(entry);
        request.socket.on('close', () => (entry.closed = true));
        return; // never answers: the run's tool call must be stopped by the cancel
      }
      response.writeHead(200, { 'content-type': 'text/html' }).end(PAGE);
    });
    await new Promise<void>((resolve) => site.listen(0, '127.0.0.1', resolve));
    const port = (site.address() as AddressInfo).port;
    base = `http://127.0.0.1:${port}`;
    const bundled = async (id: string) => readFile(join(REPO_ROOT, 'hands', `${id}.HAND.toml`), 'utf8');
    stack = await startTalonStack({
      name: 'talon-hand-runs-',
      model: 'openai',
      hands: {
        collector: await bundled('collector'),
        researcher: await bundled('researcher'),
        gatekeeper:
          'id = "gatekeeper"\nname = "Gatekeeper"\ndescription = "Tells the time once a person approves."\ntools = ["time"]\nrequires_approval = true\n[agent]\nsystem_prompt = "Tell the time with the time tool."\n',
        rocket: 'id = "rocket"\ndescription = "Launches."\ntools = ["launch_rockets"]\n',
      },
      // The loopback test site only, for web_fetch in the tool-worker.
      workers: { 'tool-worker': { TALON_SSRF_ALLOWLIST: `127.0.0.1/32@${port}` } },
      orchestratorEnv: { TALON_SCHEDULER_TICK_MS: '250', TALON_APPROVAL_TIMEOUT_MS: '120000' },
      sql: true,
      tools: ['web_fetch'],
    });
    ({ api, llm, sql } = stack);
  }, 180_000);

  afterAll(async () => {
    await stack?.close();
    site?.closeAllConnections();
    await new Promise((resolve) => site?.close(resolve));
  });

  it('collector fetches the loopback page and stores it; its instance shows the metric from memory', async () => {
    const pagePath = 'hands/collector/pages/127.0.0.1/page-a.md';
    llm.enqueue(
      { toolCalls: [{ name: 'web_fetch', arguments: { url: `${base}/page-a` } }] },
      (body) => ({
        toolCalls: [
          {
            name: 'memory_write',
            arguments: { path: pagePath, content: `${base}/page-a\n${lastToolResult(body)}` },
          },
        ],
      }),
      {
        toolCalls: [
          {
            name: 'memory_write',
            arguments: { path: 'hands/collector/stats/pages_collected', content: '1' },
          },
        ],
      },
      { text: `Stored ${pagePath}` },
    );
    const before = llm.requests.length;
    await api.ok('hands.activate', {
      id: 'collector',
      name: 'ward',
      settings: { urls: `${base}/page-a`, extract: 'full_text' },
    });
    const started = await api.ok<HandRun>('hands.execute', { instance: 'ward' });
    expect(started).toMatchObject({
      hand: 'collector',
      instance: 'ward',
      settings: { extract: 'full_text' },
    });
    const run = await stack.waitForRun(started.id, ['completed', 'failed', 'cancelled']);
    expect(run).toMatchObject({
      state: 'completed',
      result: { hand: 'collector', content: `Stored ${pagePath}` },
    });
    expect(await memory(pagePath)).toContain('Ward round checklist');
    // The run's system prompt is the hand's, with its settings; only the hand's tools were offered.
    const first = llm.requests[before]!.body as {
      messages: Array<{ content: string }>;
      tools: Array<{ function: { name: string } }>;
    };
    expect(first.messages[0]!.content).toContain('You are the Collector hand');
    expect(first.messages[0]!.content).toContain('What to keep (extract): The full readable text');
    expect(first.tools.map((tool) => tool.function.name).sort()).toEqual([
      'memory_read',
      'memory_tree',
      'memory_write',
      'time',
      'web_fetch',
    ]);
    const { instances } = await api.ok<HandInstancesReply>('hands.instances', {});
    expect(instances.find((instance) => instance.name === 'ward')?.metrics).toContainEqual(
      expect.objectContaining({ label: 'Pages collected', value: '1' }),
    );
    const listed = await api.ok<{ runs: HandRun[] }>('hands.runs.list', {
      hand: 'collector',
      state: 'completed',
    });
    expect(listed.runs.map((entry) => entry.id)).toContain(started.id);
  }, 60_000);

  it('researcher writes a cited summary to memory', async () => {
    const report = 'hands/researcher/reports/checklist.md';
    llm.enqueue(
      { toolCalls: [{ name: 'web_fetch', arguments: { url: `${base}/page-a` } }] },
      (body) => ({
        toolCalls: [
          {
            name: 'memory_write',
            arguments: {
              path: report,
              content: `The checklist says to check the drips at nine [1].\n\n${lastToolResult(body).includes('drips') ? '' : 'UNSOURCED '}[1] ${base}/page-a`,
            },
          },
        ],
      }),
      { text: `Summary in ${report}` },
    );
    const started = await api.ok<HandRun>('hands.execute', {
      id: 'researcher',
      input: 'What does the ward round checklist say?',
    });
    const run = await stack.waitForRun(started.id, ['completed', 'failed']);
    expect(run.state).toBe('completed');
    const stored = await memory(report);
    expect(stored).toContain('[1]');
    expect(stored).toContain(`[1] ${base}/page-a`);
    expect(stored).not.toContain('UNSOURCED');
  }, 60_000);

  it('a hand that requires approval waits, runs once approved (twice is a no-op), and can be denied', async () => {
    llm.enqueue({ toolCalls: [{ name: 'time', arguments: {} }] }, { text: 'It is time.' });
    const calls = llm.requests.length;
    const waiting = await api.ok<HandRun>('hands.execute', { id: 'gatekeeper' });
    expect(waiting).toMatchObject({ state: 'awaiting_approval' });
    expect(waiting.approvalDeadline).toBeDefined();
    expect(await api.call('jobs.get', { id: waiting.id })).toMatchObject({
      ok: false,
      error: { code: 'NOT_FOUND' },
    });
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(llm.requests.length).toBe(calls);
    const approved = await api.ok<HandRun>('hands.approve', { runId: waiting.id });
    expect(approved.decidedBy).toBeDefined();
    const again = await api.ok<HandRun>('hands.approve', { runId: waiting.id });
    expect(again.id).toBe(waiting.id);
    const done = await stack.waitForRun(waiting.id, ['completed', 'failed']);
    expect(done).toMatchObject({ state: 'completed', result: { content: 'It is time.' } });
    expect(
      (await api.ok<{ jobs: unknown[] }>('jobs.list', {})).jobs.filter(
        (job) => (job as { id: string }).id === waiting.id,
      ),
    ).toHaveLength(1);

    const refused = await api.ok<HandRun>('hands.execute', { id: 'gatekeeper' });
    expect(await api.ok<HandRun>('hands.approve', { runId: refused.id, decision: 'deny' })).toMatchObject({
      state: 'denied',
    });
    expect(await errorOf('hands.approve', { runId: refused.id })).toMatchObject({ code: 'POLICY_DENIED' });
  }, 60_000);

  it('refuses at dispatch a tool outside the hand’s list, and cancel stops a running tool call', async () => {
    llm.enqueue(
      { toolCalls: [{ name: 'echo', arguments: { message: 'out of bounds' } }] },
      { toolCalls: [{ name: 'web_fetch', arguments: { url: `${base}/hang` } }] },
    );
    const started = await api.ok<HandRun>('hands.execute', {
      id: 'collector',
      settings: { urls: `${base}/hang` },
    });
    await waitUntil(async () => hung.length > 0, 30_000, 'the hanging fetch to start');
    const calls = llm.requests.length;
    let echo: JobEvent | undefined;
    // Job events are written a moment after they happen.
    await waitUntil(
      async () => {
        const { events } = await api.ok<{ events: JobEvent[] }>('jobs.events', { id: started.id });
        echo = events.find((event) => event.type === 'job.tool_call_finished' && event.tool === 'echo');
        return echo !== undefined;
      },
      10_000,
      'the refused echo call in the job events',
    );
    expect(echo).toMatchObject({ ok: false });
    expect(JSON.stringify(echo)).toContain('not among the tools');
    const cancelled = await api.ok<HandRun>('hands.runs.cancel', { runId: started.id });
    expect(cancelled.id).toBe(started.id);
    const run = await stack.waitForRun(started.id, ['cancelled', 'failed', 'completed'], 20_000);
    expect(run.state).toBe('cancelled');
    await waitUntil(async () => hung[0]!.closed, 20_000, 'the hanging fetch to be closed');
    // The run stopped in its tool call: the model was not asked again.
    expect(llm.requests.length).toBe(calls);
  }, 60_000);

  it('runs a bundled hand from the CLI and shows hands in talon status', async () => {
    llm.enqueue({ toolCalls: [{ name: 'time', arguments: {} }] }, { text: 'Researched from the CLI.' });
    const run = JSON.parse(
      (
        await stack.cli(
          'hands',
          'run',
          'researcher',
          '--input',
          'What time is it?',
          '--set',
          'depth=quick',
          '--wait',
          '--json',
        )
      ).out,
    ) as HandRun;
    expect(run).toMatchObject({
      hand: 'researcher',
      state: 'completed',
      result: { content: 'Researched from the CLI.' },
    });
    expect((await stack.cli('hands', 'runs', '--hand', 'researcher')).out).toContain(run.id);
    expect((await stack.cli('status')).out).toMatch(
      /Hands: \d+ \(\d+ ready, 1 file\(s\) refused\); instances: 1 active/,
    );
  }, 60_000);

  it('refuses bad inputs with typed errors: paused instance, setting outside options, unknown tool, reserved hand', async () => {
    await api.ok('hands.activate', { id: 'collector', name: 'nightly', settings: { extract: 'links' } });
    expect(await api.ok('hands.pause', { name: 'nightly' })).toMatchObject({ state: 'paused' });
    expect(await errorOf('hands.execute', { instance: 'nightly' })).toMatchObject({
      code: 'HAND_NOT_ACTIVE',
      details: { instance: 'nightly', state: 'paused' },
    });
    expect(await api.ok('hands.resume', { name: 'nightly' })).toMatchObject({ state: 'active' });
    expect(await api.ok('hands.delete', { name: 'nightly' })).toMatchObject({ state: 'inactive' });
    expect(await errorOf('hands.execute', { instance: 'nightly' })).toMatchObject({
      code: 'HAND_NOT_ACTIVE',
    });
    const outside = await errorOf('hands.activate', {
      id: 'collector',
      name: 'bad',
      settings: { extract: 'everything' },
    });
    expect(outside.code).toBe('SCHEMA_VIOLATION');
    expect(outside.message).toContain('extract');
    expect(await errorOf('hands.execute', { id: 'collector', settings: { nope: 'x' } })).toMatchObject({
      code: 'SCHEMA_VIOLATION',
    });
    const rocket = await errorOf('hands.execute', { id: 'rocket' });
    expect(rocket).toMatchObject({ code: 'NOT_FOUND', details: { rejection: { reason: 'unknown_tool' } } });
    expect(rocket.message).toContain('launch_rockets');
    expect(await errorOf('hands.execute', { id: '_reminder' })).toMatchObject({ code: 'POLICY_DENIED' });
    expect(await errorOf('hands.activate', { id: 'collector', name: 'ward' })).toMatchObject({
      code: 'NAME_CONFLICT',
    });
  }, 60_000);

  it('a reminder in chat is caught before the configured model: the scripted provider is not called', async () => {
    const { id: sessionId } = await api.ok<{ id: string }>('sessions.create', { title: 'remind' });
    const calls = llm.requests.length;
    const reply = await api.ok<ChatSendReply>('chat.send', { sessionId, message: '每天早上9点提醒我查房' });
    expect(reply).toMatchObject({ reason: 'schedule_intercepted', content: '好的，每天 09:00 提醒你：查房' });
    expect(llm.requests.length).toBe(calls);
  }, 30_000);
});
