import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { createServer, type Server } from 'node:http';
import { mkdir, mkdtemp, rm, writeFile, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import type { NatsConnection, Subscription } from '@nats-io/transport-node';
import grpc from '@grpc/grpc-js';
import protoLoader from '@grpc/proto-loader';
import { TALON_PROTO_PATH } from '@talon/contracts';
import type { ChatEvent, ChatSendReply, Envelope } from '@talon/contracts';
import {
  natsTokenHeaders,
  bearerHeaders,
  createTestDatabase,
  findFreePort,
  startNatsTestServer,
  startServiceProcess,
  type NatsTestServer,
  type ServiceProcess,
  type TestDatabase,
  waitUntil,
} from '@talon/testing';
import { startOpenAiCompatibleServer, type LlmTestServer } from '../../../libs/llm/test/support/index.js';

/** Records every event published for a session. */
function recordEvents(
  client: NatsConnection,
  sessionId: string,
): {
  events: ChatEvent[];
  subscription: Subscription;
  waitFor(type: string, count?: number): Promise<ChatEvent>;
} {
  const events: ChatEvent[] = [];
  const subscription = client.subscribe(`talon.events.v1.session.${sessionId}`, {
    callback: (_error, message) => void events.push(message.json<ChatEvent>()),
  });
  return {
    events,
    subscription,
    async waitFor(type, count = 1) {
      const started = Date.now();
      for (;;) {
        const matching = events.filter((event) => event.type === type);
        if (matching.length >= count) return matching[count - 1]!;
        if (Date.now() - started > 20_000)
          throw new Error(
            `event ${type} #${count} not seen; got ${events.map((event) => event.type).join(', ')}`,
          );
        await sleep(25);
      }
    },
  };
}

const TRUSTED_SKILL = `---
name: release-notes
description: Writes release notes from a list of merged changes.
activation:
  keywords: [release notes, changelog]
---
Group the changes by area and lead with what users notice.
`;

const INSTALLED_SKILL = `---
name: crypto-tips
description: Suggestions about cryptocurrency wallets.
activation:
  keywords: [wallet]
---
Always mention hardware wallets.
`;

describe('agent loop through the orchestrator (OpenAI protocol)', () => {
  let nats: NatsTestServer;
  let database: TestDatabase;
  let llm: LlmTestServer;
  let client: NatsConnection;
  let stateDir: string;
  let workspaceDir: string;
  let target: Server;
  let targetPort: number;
  const seenAuthorization: Array<string | undefined> = [];
  const services: ServiceProcess[] = [];
  let orchestrator: ServiceProcess;
  let orchestratorEnv: Record<string, string>;

  beforeAll(async () => {
    [nats, database, llm] = await Promise.all([
      startNatsTestServer(),
      createTestDatabase(),
      startOpenAiCompatibleServer(),
    ]);
    stateDir = await mkdtemp(join(tmpdir(), 'talon-agent-'));
    workspaceDir = join(stateDir, 'workspace');
    await mkdir(join(stateDir, 'skills', 'release-notes'), { recursive: true });
    await mkdir(join(stateDir, 'installed', 'crypto-tips'), { recursive: true });
    await writeFile(join(stateDir, 'skills', 'release-notes', 'SKILL.md'), TRUSTED_SKILL);
    await writeFile(join(stateDir, 'installed', 'crypto-tips', 'SKILL.md'), INSTALLED_SKILL);
    target = createServer((request, response) => {
      seenAuthorization.push(request.headers.authorization);
      response.setHeader('content-type', 'application/json');
      response.end(JSON.stringify({ ok: true, auth: request.headers.authorization ?? null }));
    });
    await new Promise<void>((resolve) => target.listen(0, '127.0.0.1', resolve));
    targetPort = (target.address() as { port: number }).port;
    const base = { NATS_URL: nats.url, TALON_STATE_DIR: stateDir };
    services.push(
      ...(await Promise.all([
        startServiceProcess('skill-service', {
          ...base,
          SKILLS_WORKSPACE_DIR: join(stateDir, 'skills'),
          SKILLS_DIR: join(stateDir, 'user-skills'),
          SKILLS_INSTALLED_DIR: join(stateDir, 'installed'),
        }),
        startServiceProcess('tool-worker', { ...base, TALON_SSRF_ALLOWLIST: `127.0.0.1/32@${targetPort}` }),
      ])),
    );
    orchestratorEnv = {
      ...base,
      DATABASE_URL: database.url,
      TALON_HTTP_PORT: String(await findFreePort()),
      TALON_GRPC_PORT: String(await findFreePort()),
      TALON_LLM_PROVIDER: 'openai',
      TALON_LLM_BASE_URL: llm.baseURL,
      TALON_LLM_API_KEY: 'test-key',
      TALON_LLM_MODEL: 'test-model',
      TALON_SECRETS_KEY: Buffer.alloc(32, 7).toString('base64'),
      TALON_APPROVAL_TIMEOUT_MS: '60000',
      // A killed orchestrator's turn is taken over once its lease expires: keep that short here.
      TALON_TURN_LEASE_MS: '2000',
    };
    orchestrator = await startServiceProcess('orchestrator', orchestratorEnv);
    client = await nats.connect('api');
  }, 120_000);

  afterAll(async () => {
    await client?.close();
    await Promise.all([orchestrator, ...services].map((service) => service?.kill()));
    await Promise.all([
      nats?.stop(),
      database?.drop(),
      llm?.close(),
      new Promise((resolve) => target?.close(resolve)),
    ]);
    await rm(stateDir, { recursive: true, force: true });
  });

  async function api<T>(method: string, payload: unknown, timeout = 30_000): Promise<T> {
    const reply = (
      await client.request(`talon.api.v1.${method}`, JSON.stringify(payload), {
        timeout,
        headers: natsTokenHeaders(nats.bootstrapToken),
      })
    ).json<Envelope<T>>();
    if (!reply.ok) throw Object.assign(new Error(reply.error.message), reply.error);
    return reply.data;
  }

  const newSession = async () => (await api<{ id: string }>('sessions.create', { title: 'test' })).id;
  const toolNamesOf = (request: { body: Record<string, unknown> }) =>
    ((request.body.tools as Array<{ function: { name: string } }>) ?? [])
      .map((tool) => tool.function.name)
      .sort();
  const systemOf = (request: { body: Record<string, unknown> }) =>
    String((request.body.messages as Array<{ role: string; content: string }>)[0]!.content);

  it('runs a full turn with two tool calls, streams its events and persists every message', async () => {
    const sessionId = await newSession();
    const recorder = recordEvents(client, sessionId);
    llm.enqueue(
      {
        text: ['Let me ', 'check.'],
        toolCalls: [
          { name: 'echo', arguments: { message: 'ping' } },
          { name: 'time', arguments: { operation: 'now', zone: 'UTC' } },
        ],
      },
      { text: ['Both tools answered: ', 'ping.'] },
    );
    const reply = await api<ChatSendReply>('chat.send', {
      sessionId,
      message: 'Please echo ping and tell me the time.',
    });
    expect(reply).toMatchObject({
      reason: 'final_answer',
      content: 'Both tools answered: ping.',
      iterations: 2,
    });
    await recorder.waitFor('turn_finished');
    const types = recorder.events.map((event) => event.type);
    expect(types.filter((type) => type === 'tool_call_finished')).toHaveLength(2);
    expect(types).toEqual(
      expect.arrayContaining([
        'turn_started',
        'text_delta',
        'tool_call_started',
        'message',
        'usage',
        'turn_finished',
      ]),
    );
    const second = llm.requests.at(-1)!.body.messages as Array<{
      role: string;
      content: string;
      tool_call_id?: string;
    }>;
    const toolResults = second.filter((message) => message.role === 'tool');
    expect(toolResults).toHaveLength(2);
    expect(toolResults[0]!.content).toMatch(/^<tool_output name="echo"/);
    const session = await api<{ messages: Array<{ role: string }> }>('sessions.get', {
      id: sessionId,
      includeMessages: true,
    });
    expect(session.messages.map((message) => message.role)).toEqual([
      'user',
      'assistant',
      'tool',
      'tool',
      'assistant',
    ]);
    await recorder.subscription.unsubscribe();
  });

  it('activates a skill by keyword and injects it into the system prompt', async () => {
    const sessionId = await newSession();
    llm.enqueue({ text: 'Here are the notes.' });
    await api('chat.send', { sessionId, message: 'Write the release notes for 2.3 please' });
    const system = systemOf(llm.requests.at(-1)!);
    expect(system).toContain('<skill name="release-notes"');
    expect(system).toContain('trust="TRUSTED"');
    // `/release-notes …` is not a built-in command: it mentions the skill, and the turn runs with it.
    llm.enqueue({ text: 'Notes by mention.' });
    expect(
      await api<ChatSendReply>('chat.send', { sessionId, message: '/release-notes for the last sprint' }),
    ).toMatchObject({ content: 'Notes by mention.' });
    expect(systemOf(llm.requests.at(-1)!)).toContain('<skill name="release-notes"');
  });

  it('an Installed skill narrows the tools, and dispatch refuses a removed tool the model calls anyway', async () => {
    const sessionId = await newSession();
    const recorder = recordEvents(client, sessionId);
    llm.enqueue(
      { toolCalls: [{ name: 'http', arguments: { url: `http://127.0.0.1:${targetPort}/steal` } }] },
      { text: 'I cannot do that.' },
    );
    const before = seenAuthorization.length;
    await api('chat.send', { sessionId, message: 'Which wallet should I use?' });
    const offered = toolNamesOf(llm.requests.at(-2)!);
    expect(offered).not.toContain('http');
    expect(offered).toEqual(expect.arrayContaining(['echo', 'time', 'json']));
    expect(systemOf(llm.requests.at(-2)!)).toContain('trust="INSTALLED"');
    const refused = await recorder.waitFor('tool_call_finished');
    expect(refused).toMatchObject({ tool: 'http', ok: false, policy: { action: 'deny' } });
    expect(String(refused.policy && (refused.policy as { reason: string }).reason)).toMatch(/attenuation/);
    expect(seenAuthorization.length).toBe(before);
    await recorder.subscription.unsubscribe();
  });

  it('a tool that appears mid-session is offered on the next model call', async () => {
    const sessionId = await newSession();
    llm.enqueue({ text: 'No file tools yet.' });
    await api('chat.send', { sessionId, message: 'list files' });
    expect(toolNamesOf(llm.requests.at(-1)!)).not.toContain('read_file');
    services.push(
      await startServiceProcess('wasm-runner', {
        NATS_URL: nats.url,
        TALON_STATE_DIR: stateDir,
        TALON_WORKSPACE_DIR: workspaceDir,
      }),
    );
    await sleep(500);
    llm.enqueue({ text: 'Now I can read files.' });
    await api('chat.send', { sessionId, message: 'list files again' });
    expect(toolNamesOf(llm.requests.at(-1)!)).toEqual(
      expect.arrayContaining(['read_file', 'write_file', 'shell']),
    );
  });

  it('asks before a write, then runs it on approve', async () => {
    const sessionId = await newSession();
    const recorder = recordEvents(client, sessionId);
    llm.enqueue(
      { toolCalls: [{ name: 'write_file', arguments: { path: 'notes.txt', content: 'approved write' } }] },
      { text: 'Written.' },
    );
    const turn = api<ChatSendReply>('chat.send', { sessionId, message: 'write a note' });
    const requested = await recorder.waitFor('approval_requested');
    const pending = await api<{ approvals: Array<{ id: string; tool: string }> }>('approvals.list', {
      sessionId,
    });
    expect(pending.approvals.map((approval) => approval.tool)).toEqual(['write_file']);
    await api('approvals.resolve', { id: requested.approvalId, decision: 'approve' });
    expect(await turn).toMatchObject({ reason: 'final_answer' });
    expect(await readFile(join(workspaceDir, 'notes.txt'), 'utf8')).toBe('approved write');
    await recorder.subscription.unsubscribe();
  });

  it('asks, and a deny keeps the tool from running', async () => {
    const sessionId = await newSession();
    const recorder = recordEvents(client, sessionId);
    llm.enqueue(
      { toolCalls: [{ name: 'write_file', arguments: { path: 'denied.txt', content: 'no' } }] },
      { text: 'Understood.' },
    );
    const turn = api<ChatSendReply>('chat.send', { sessionId, message: 'write another note' });
    const requested = await recorder.waitFor('approval_requested');
    await api('approvals.resolve', { id: requested.approvalId, decision: 'deny' });
    await turn;
    expect(await recorder.waitFor('tool_call_finished')).toMatchObject({ tool: 'write_file', ok: false });
    await expect(readFile(join(workspaceDir, 'denied.txt'))).rejects.toMatchObject({ code: 'ENOENT' });
    await recorder.subscription.unsubscribe();
  });

  it('approve-always sticks for the session, including for http calls that carry a credential', async () => {
    await api('secrets.set', {
      name: 'TARGET_TOKEN',
      value: 'tok_live_abcdef1234567890',
      hostPatterns: [`127.0.0.1:${targetPort}`],
    });
    const listed = await api<{ secrets: Array<Record<string, unknown>> }>('secrets.list', {});
    expect(JSON.stringify(listed)).not.toContain('tok_live_abcdef1234567890');
    const sessionId = await newSession();
    const recorder = recordEvents(client, sessionId);
    const url = `http://127.0.0.1:${targetPort}/api`;
    llm.enqueue(
      { toolCalls: [{ name: 'http', arguments: { url, method: 'POST', json: { a: 1 } } }] },
      { text: 'Posted once.' },
    );
    const first = api<ChatSendReply>('chat.send', { sessionId, message: 'post it' });
    const requested = await recorder.waitFor('approval_requested');
    await api('approvals.resolve', { id: requested.approvalId, decision: 'approve_always' });
    await first;
    llm.enqueue(
      { toolCalls: [{ name: 'http', arguments: { url, method: 'POST', json: { a: 2 } } }] },
      { text: 'Posted twice.' },
    );
    expect(await api<ChatSendReply>('chat.send', { sessionId, message: 'post it again' })).toMatchObject({
      content: 'Posted twice.',
    });
    expect(recorder.events.filter((event) => event.type === 'approval_requested')).toHaveLength(1);
    expect(seenAuthorization.slice(-2)).toEqual([
      'Bearer tok_live_abcdef1234567890',
      'Bearer tok_live_abcdef1234567890',
    ]);
    const toolResult = (llm.requests.at(-1)!.body.messages as Array<{ role: string; content: string }>)
      .filter((message) => message.role === 'tool')
      .at(-1)!;
    expect(toolResult.content).not.toContain('tok_live_abcdef1234567890');
    await recorder.subscription.unsubscribe();
  });

  // write_file lives on the wasm-runner: a restarted orchestrator knows it once the runner has announced it.
  const writeFileInCatalog = () =>
    waitUntil(
      async () =>
        (await api<{ tools: Array<{ definition: { name: string } }> }>('tools.list', {})).tools.some(
          (entry) => entry.definition.name === 'write_file',
        ),
      20_000,
      'write_file in the catalog',
    );

  it('a pending approval that times out counts as denied', async () => {
    await orchestrator.stop();
    orchestrator = await startServiceProcess('orchestrator', {
      ...orchestratorEnv,
      TALON_APPROVAL_TIMEOUT_MS: '1500',
    });
    try {
      await writeFileInCatalog();
      const sessionId = await newSession();
      const recorder = recordEvents(client, sessionId);
      llm.enqueue(
        { toolCalls: [{ name: 'write_file', arguments: { path: 'late.txt', content: 'late' } }] },
        { text: 'Timed out.' },
      );
      await api('chat.send', { sessionId, message: 'write late' });
      expect(await recorder.waitFor('approval_resolved')).toMatchObject({
        approved: false,
        decision: 'expire',
      });
      await expect(readFile(join(workspaceDir, 'late.txt'))).rejects.toMatchObject({ code: 'ENOENT' });
      await recorder.subscription.unsubscribe();
    } finally {
      // The next tests run on the usual approval timeout, whatever happened here.
      await orchestrator.stop();
      orchestrator = await startServiceProcess('orchestrator', orchestratorEnv);
    }
  });

  it('a turn waiting for approval resumes after the orchestrator restarts, and no message is lost', async () => {
    await writeFileInCatalog();
    const sessionId = await newSession();
    const recorder = recordEvents(client, sessionId);
    llm.enqueue(
      { toolCalls: [{ name: 'write_file', arguments: { path: 'restart.txt', content: 'survived' } }] },
      { text: 'Done after restart.' },
    );
    void api('chat.send', { sessionId, message: 'write across a restart' }, 60_000).catch(() => undefined);
    const requested = await recorder.waitFor('approval_requested');
    await orchestrator.kill();
    orchestrator = await startServiceProcess('orchestrator', orchestratorEnv);
    // The new orchestrator's catalog learns write_file from the runner's next announcement; on a loaded
    // machine that can take longer than the dispatcher's warm-up wait (once in CI), which is not what this
    // test is about.
    await writeFileInCatalog();
    await api('approvals.resolve', { id: requested.approvalId, decision: 'approve' });
    await recorder.waitFor('turn_finished');
    expect(await readFile(join(workspaceDir, 'restart.txt'), 'utf8')).toBe('survived');
    const session = await api<{ messages: Array<{ role: string }> }>('sessions.get', {
      id: sessionId,
      includeMessages: true,
    });
    expect(session.messages.map((message) => message.role)).toEqual([
      'user',
      'assistant',
      'tool',
      'assistant',
    ]);
    await recorder.subscription.unsubscribe();
  });

  it('the audit chain verifies, and catches an edited row and a deleted row', async () => {
    await sleep(500);
    expect(await api('audit.verify', {})).toMatchObject({ ok: true });
    const pg = await import('pg');
    const db = new pg.default.Client({ connectionString: database.url });
    await db.connect();
    const { rows } = await db.query('SELECT chain_seq AS id FROM audit_event ORDER BY chain_seq LIMIT 3');
    await db.query("UPDATE audit_event SET outcome = 'tampered' WHERE chain_seq = $1", [rows[1].id]);
    expect(await api('audit.verify', {})).toMatchObject({
      ok: false,
      firstBreak: { id: String(rows[1].id), reason: 'edited' },
    });
    await db.query('DELETE FROM audit_event WHERE chain_seq = $1', [rows[1].id]);
    expect(await api('audit.verify', {})).toMatchObject({
      ok: false,
      firstBreak: { id: String(rows[2].id), reason: 'deleted_before' },
    });
    await db.end();
  });

  it('tools.call with the agent policy answers APPROVAL_REQUIRED, then runs the same call once approved', async () => {
    const sessionId = await newSession();
    const call = {
      tool: 'write_file',
      params: { path: 'gated.txt', content: 'gated' },
      sessionId,
      policy: 'agent',
    };
    const first = await api('tools.call', call).catch(
      (error: { code: string; details: { approvalId: string } }) => error,
    );
    expect(first).toMatchObject({ code: 'APPROVAL_REQUIRED', details: { approvalId: expect.any(String) } });
    const again = await api('tools.call', call).catch((error: { details: { approvalId: string } }) => error);
    expect((again as { details: { approvalId: string } }).details.approvalId).toBe(
      (first as { details: { approvalId: string } }).details.approvalId,
    );
    await api('approvals.resolve', {
      id: (first as { details: { approvalId: string } }).details.approvalId,
      decision: 'approve',
    });
    expect(await api('tools.call', call)).toMatchObject({ tool: 'write_file' });
    expect(await readFile(join(workspaceDir, 'gated.txt'), 'utf8')).toBe('gated');
    const other = await api('tools.call', { ...call, params: { path: 'other.txt', content: 'x' } }).catch(
      (error) => error,
    );
    expect(other).toMatchObject({ code: 'APPROVAL_REQUIRED' });
    await expect(
      api('tools.call', { tool: 'echo', params: { message: 'free' }, sessionId, policy: 'agent' }),
    ).resolves.toMatchObject({ output: 'free' });
    await expect(
      api('tools.call', { tool: 'echo', params: { message: 'x' }, policy: 'agent' }),
    ).rejects.toMatchObject({ code: 'SCHEMA_VIOLATION' });
  });

  it('validates before asking: invalid params answer SCHEMA_VIOLATION in the loop and in tools.call, and nobody is asked', async () => {
    const sessionId = await newSession();
    const recorder = recordEvents(client, sessionId);
    llm.enqueue(
      { toolCalls: [{ name: 'write_file', arguments: { path: { not: 'a string' }, content: 'x' } }] },
      { text: 'Could not write.' },
    );
    expect(await api<ChatSendReply>('chat.send', { sessionId, message: 'write badly' })).toMatchObject({
      reason: 'final_answer',
    });
    expect(await recorder.waitFor('tool_call_finished')).toMatchObject({
      tool: 'write_file',
      ok: false,
      code: 'SCHEMA_VIOLATION',
    });
    expect(recorder.events.map((event) => event.type)).not.toContain('approval_requested');
    await expect(
      api('tools.call', {
        tool: 'write_file',
        params: { path: ['a'], content: 'x' },
        sessionId,
        policy: 'agent',
      }),
    ).rejects.toMatchObject({ code: 'SCHEMA_VIOLATION' });
    // Right after an orchestrator (re)starts, a missing tool is UNAVAILABLE while the catalog warms up.
    let unknownCode: string | undefined;
    await waitUntil(
      async () => {
        unknownCode = await api('tools.call', {
          tool: 'no_such_tool',
          params: {},
          sessionId,
          policy: 'agent',
        }).then(
          () => 'ok',
          (error: { code?: string }) => error.code,
        );
        return unknownCode !== 'UNAVAILABLE';
      },
      15_000,
      'the catalog warmed up',
      250,
    );
    expect(unknownCode).toBe('UNKNOWN_TOOL');
    const pending = await api<{ approvals: unknown[] }>('approvals.list', { sessionId });
    expect(pending.approvals).toEqual([]);
    await recorder.subscription.unsubscribe();
  });

  it('streams a turn over HTTP server-sent events', async () => {
    const sessionId = await newSession();
    llm.enqueue({ text: ['Streamed ', 'over SSE.'] });
    const response = await fetch(
      `http://127.0.0.1:${orchestratorEnv.TALON_HTTP_PORT}/v1/sessions/${sessionId}/messages`,
      {
        method: 'POST',
        headers: bearerHeaders(nats.bootstrapToken),
        body: JSON.stringify({ message: 'hello over http' }),
      },
    );
    expect(response.headers.get('content-type')).toContain('text/event-stream');
    const text = await response.text();
    const events = text
      .split('\n\n')
      .filter(Boolean)
      .map((block) =>
        block
          .split('\n')
          .find((line) => line.startsWith('event: '))!
          .replace('event: ', ''),
      );
    expect(events).toEqual(
      expect.arrayContaining(['turn_started', 'text_delta', 'message', 'turn_finished']),
    );
    expect(events.at(-1)).toBe('result');
    expect(text).toContain('"content":"Streamed over SSE."');
    const bad = await fetch(
      `http://127.0.0.1:${orchestratorEnv.TALON_HTTP_PORT}/v1/sessions/${sessionId}/messages`,
      { method: 'POST', body: '{"message":', headers: bearerHeaders(nats.bootstrapToken) },
    );
    expect(bad.status).toBe(400);
    expect(await bad.json()).toMatchObject({ ok: false, error: { code: 'MALFORMED_JSON' } });
  });

  it('streams a turn over gRPC (server streaming)', async () => {
    const sessionId = await newSession();
    llm.enqueue({ text: ['Streamed ', 'over gRPC.'] });
    const definition = protoLoader.loadSync(TALON_PROTO_PATH, { keepCase: true, defaults: true });
    const proto = grpc.loadPackageDefinition(definition) as unknown as {
      talon: { v1: { Talon: grpc.ServiceClientConstructor } };
    };
    const grpcClient = new proto.talon.v1.Talon(
      `127.0.0.1:${orchestratorEnv.TALON_GRPC_PORT}`,
      grpc.credentials.createInsecure(),
    ) as unknown as {
      Chat(request: object, metadata: grpc.Metadata): NodeJS.ReadableStream;
      close(): void;
    };
    const metadata = new grpc.Metadata();
    metadata.set('authorization', `Bearer ${nats.bootstrapToken}`);
    const stream = grpcClient.Chat({ session_id: sessionId, message: 'hello over grpc' }, metadata);
    const events: Array<{ type: string; event_json: string }> = [];
    for await (const event of stream as AsyncIterable<{ type: string; event_json: string }>)
      events.push(event);
    grpcClient.close();
    expect(events.map((event) => event.type)).toEqual(
      expect.arrayContaining(['turn_started', 'text_delta', 'message', 'turn_finished', 'result']),
    );
    expect(JSON.parse(events.at(-1)!.event_json)).toMatchObject({
      type: 'result',
      content: 'Streamed over gRPC.',
    });
  });

  it('refuses params nested 10,000 deep with a typed error on NATS, HTTP, gRPC and a worker subject', async () => {
    const deep = (depth: number) => `${'['.repeat(depth)}${']'.repeat(depth)}`;
    const body = (depth: number) => `{"tool":"echo","params":{"message":"x","deep":${deep(depth)}}}`;
    // Worker subjects are asked as the orchestrator's NATS user, the API as a caller with the token.
    const orchestratorBus = await nats.connect('orchestrator');
    const bus = async (subject: string, text: string) =>
      (
        await (subject.startsWith('talon.api.') ? client : orchestratorBus).request(subject, text, {
          timeout: 10_000,
          headers: natsTokenHeaders(nats.bootstrapToken),
        })
      ).json<Envelope<unknown>>();
    const definition = protoLoader.loadSync(TALON_PROTO_PATH, { keepCase: true, defaults: true });
    const proto = grpc.loadPackageDefinition(definition) as unknown as {
      talon: { v1: { Talon: grpc.ServiceClientConstructor } };
    };
    const grpcClient = new proto.talon.v1.Talon(
      `127.0.0.1:${orchestratorEnv.TALON_GRPC_PORT}`,
      grpc.credentials.createInsecure(),
    ) as unknown as {
      Call(
        request: object,
        metadata: grpc.Metadata,
        done: (error: Error | null, reply: unknown) => void,
      ): void;
      close(): void;
    };
    const grpcAuth = new grpc.Metadata();
    grpcAuth.set('authorization', `Bearer ${nats.bootstrapToken}`);
    try {
      for (const depth of [5_000, 10_000]) {
        expect(await bus('talon.api.v1.tools.call', body(depth))).toMatchObject({
          ok: false,
          error: { code: 'PAYLOAD_TOO_LARGE', details: { limit: 'maxDepth' } },
        });
        const http = await fetch(`http://127.0.0.1:${orchestratorEnv.TALON_HTTP_PORT}/v1/rpc/tools.call`, {
          method: 'POST',
          body: body(depth),
          headers: bearerHeaders(nats.bootstrapToken),
        });
        expect(http.status).toBe(413);
        expect(http.headers.get('talon-call-id')).toMatch(/^[0-9a-f-]{36}$/);
        expect(await http.json()).toMatchObject({ ok: false, error: { code: 'PAYLOAD_TOO_LARGE' } });
        const viaGrpc = await new Promise((resolve, reject) =>
          grpcClient.Call({ method: 'tools.call', payload_json: body(depth) }, grpcAuth, (error, reply) =>
            error ? reject(error) : resolve(reply),
          ),
        );
        expect(viaGrpc).toMatchObject({ ok: false, error: { code: 'PAYLOAD_TOO_LARGE' } });
        const worker = `{"callId":"deep","tool":"echo","timeoutMs":1000,"params":${deep(depth)}}`;
        expect(await bus('talon.tools.v1.call.orchestrator', worker)).toMatchObject({
          ok: false,
          error: { code: 'PAYLOAD_TOO_LARGE' },
        });
      }
      // Deeper than tool params may be (32) but within the wire limit (64): the tool's own limit answers.
      expect(await bus('talon.api.v1.tools.call', body(40))).toMatchObject({
        ok: false,
        error: { code: 'PAYLOAD_TOO_LARGE', details: { tool: 'echo', limit: 'maxDepth', max: 32 } },
      });
    } finally {
      grpcClient.close();
      await orchestratorBus.close();
    }
  });

  it("the shell tool's domain explains its approval: every program a command hides is shown to the person", async () => {
    const sessionId = await newSession();
    const recorder = recordEvents(client, sessionId);
    llm.enqueue(
      {
        toolCalls: [{ name: 'shell', arguments: { command: 'find . -name x -exec touch hidden-marker ;' } }],
      },
      { text: 'Done.' },
    );
    const turn = api<ChatSendReply>('chat.send', { sessionId, message: 'find' });
    const requested = await recorder.waitFor('approval_requested');
    expect(requested).toMatchObject({ tool: 'shell' });
    // The wasm-runner parsed the command: the prompt names the program find would run.
    expect((requested as unknown as { reason: string }).reason).toMatch(
      /find runs through|runs: find, touch \(via find -exec\)/,
    );
    expect((requested as unknown as { reason: string }).reason).toContain('touch (via find -exec)');
    await api('approvals.resolve', { id: requested.approvalId, decision: 'deny' });
    await turn;
    const gated = await api('tools.call', {
      tool: 'shell',
      params: { command: 'tar -xf a.tar --to-command="touch hidden"' },
      sessionId,
      policy: 'agent',
    }).catch((error: { code: string; message: string }) => error);
    expect(gated).toMatchObject({ code: 'APPROVAL_REQUIRED' });
    const pending = await api<{ approvals: Array<{ tool: string; reason: string }> }>('approvals.list', {
      sessionId,
    });
    expect(pending.approvals.map((approval) => approval.reason).join(' ')).toContain(
      'touch (via tar --to-command)',
    );
    await api('audit.list', { limit: 1 }); // the audit outbox is written into the table first
    const pg = await import('pg');
    const db = new pg.default.Client({ connectionString: database.url });
    await db.connect();
    try {
      const { rows } = await db.query(
        "SELECT data::jsonb->>'reason' AS reason FROM audit_event WHERE kind = 'approval.request' AND session_id = $1",
        [sessionId],
      );
      expect(rows.map((row: { reason: string }) => row.reason).join(' ')).toContain('touch (via find -exec)');
    } finally {
      await db.end();
    }
    await recorder.subscription.unsubscribe();
  });

  it('a tool result larger than the NATS max_payload answers PAYLOAD_TOO_LARGE at once, not TIMEOUT', async () => {
    await writeFile(join(workspaceDir, 'big.txt'), 'x'.repeat(3 * 1024 * 1024));
    const started = Date.now();
    const failed = await api('tools.call', { tool: 'read_file', params: { path: 'big.txt' } }).catch(
      (error: { code: string; details?: unknown }) => error,
    );
    expect(failed).toMatchObject({ code: 'PAYLOAD_TOO_LARGE', details: { direction: 'reply' } });
    expect(Date.now() - started).toBeLessThan(10_000);
  });

  it('works without a model through slash commands', async () => {
    const sessionId = await newSession();
    const tools = await api<ChatSendReply>('chat.send', { sessionId, message: '/tools' });
    expect(JSON.stringify(tools.command)).toContain('"echo"');
    const call = await api<ChatSendReply>('chat.send', {
      sessionId,
      message: '/call echo {"message":"slash"}',
    });
    expect(call.command).toMatchObject({ ok: true, tool: 'echo' });
    await expect(api('chat.send', { sessionId, message: '/frobnicate' })).rejects.toMatchObject({
      code: 'UNKNOWN_METHOD',
    });
  });
});
