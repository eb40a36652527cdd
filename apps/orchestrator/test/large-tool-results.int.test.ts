import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { mkdir, mkdtemp, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Objm } from '@nats-io/obj';
import type { NatsConnection } from '@nats-io/transport-node';
import { TOOL_RESULT_BUCKET, type ChatSendReply, type Envelope, type ToolsCallReply } from '@talon/contracts';
import {
  bearerHeaders,
  createTestDatabase,
  findFreePort,
  natsTokenHeaders,
  startNatsTestServer,
  startServiceProcess,
  waitUntil,
  type NatsTestServer,
  type ServiceProcess,
  type TestDatabase,
} from '@talon/testing';
import { startOpenAiCompatibleServer, type LlmTestServer } from '../../../libs/llm/test/support/index.js';

/** A NATS server whose `max_payload` is far below what `read_file` may return. */
const MAX_PAYLOAD = 128 * 1024;

describe('tool results larger than the NATS max_payload', () => {
  let nats: NatsTestServer;
  let database: TestDatabase;
  let llm: LlmTestServer;
  let client: NatsConnection;
  let orchestratorBus: NatsConnection;
  let stateDir: string;
  let workspaceDir: string;
  let httpUrl: string;
  const services: ServiceProcess[] = [];
  /** 900 KiB of text that differs along its length, so a cut or a mix-up shows. */
  const bigText = Array.from({ length: 9_000 }, (_, line) => `line ${line} `.padEnd(99, '.') + '\n').join('');

  beforeAll(async () => {
    [nats, database, llm] = await Promise.all([
      startNatsTestServer({ maxPayloadBytes: MAX_PAYLOAD }),
      createTestDatabase(),
      startOpenAiCompatibleServer(),
    ]);
    stateDir = await mkdtemp(join(tmpdir(), 'talon-large-results-'));
    workspaceDir = join(stateDir, 'workspace');
    await mkdir(workspaceDir, { recursive: true });
    await writeFile(join(workspaceDir, 'big.txt'), bigText);
    const base = { NATS_URL: nats.url, TALON_STATE_DIR: stateDir };
    const httpPort = await findFreePort();
    httpUrl = `http://127.0.0.1:${httpPort}`;
    services.push(
      ...(await Promise.all([
        startServiceProcess('wasm-runner', { ...base, TALON_WORKSPACE_DIR: workspaceDir }),
        startServiceProcess('tool-worker', base),
        startServiceProcess('orchestrator', {
          ...base,
          DATABASE_URL: database.url,
          TALON_HTTP_PORT: String(httpPort),
          TALON_GRPC_PORT: String(await findFreePort()),
          TALON_LLM_PROVIDER: 'openai',
          TALON_LLM_BASE_URL: llm.baseURL,
          TALON_LLM_API_KEY: 'test-key',
          TALON_LLM_MODEL: 'test-model',
          TALON_SECRETS_KEY: Buffer.alloc(32, 7).toString('base64'),
        }),
      ])),
    );
    client = await nats.connect('api');
    orchestratorBus = await nats.connect('orchestrator');
  }, 120_000);

  afterAll(async () => {
    await client?.close();
    await orchestratorBus?.close();
    await Promise.all(services.map((service) => service.kill()));
    await Promise.all([nats?.stop(), database?.drop(), llm?.close()]);
    await rm(stateDir, { recursive: true, force: true });
  });

  async function api<T>(method: string, payload: unknown): Promise<T> {
    const reply = (
      await client.request(`talon.api.v1.${method}`, JSON.stringify(payload), {
        timeout: 30_000,
        headers: natsTokenHeaders(nats.bootstrapToken),
      })
    ).json<Envelope<T>>();
    if (!reply.ok) throw Object.assign(new Error(reply.error.message), reply.error);
    return reply.data;
  }

  async function httpCall<T>(method: string, payload: unknown): Promise<Envelope<T>> {
    const response = await fetch(`${httpUrl}/v1/rpc/${method}`, {
      method: 'POST',
      body: JSON.stringify(payload),
      headers: { ...bearerHeaders(nats.bootstrapToken), 'content-type': 'application/json' },
    });
    return (await response.json()) as Envelope<T>;
  }

  /** Objects of the tool-result bucket that are not deleted. */
  async function storedResults(): Promise<number> {
    const store = await new Objm(orchestratorBus).open(TOOL_RESULT_BUCKET);
    return (await store.list()).filter((info) => !info.deleted).length;
  }

  it('returns a read_file result of 900 KiB whole, through the object store, to the operator', async () => {
    await waitUntil(async () => {
      const reply = await httpCall<ToolsCallReply>('tools.call', {
        tool: 'read_file',
        params: { path: 'missing.txt' },
      });
      return !reply.ok && reply.error.code !== 'UNKNOWN_TOOL';
    }, 30_000);
    const reply = await httpCall<ToolsCallReply>('tools.call', {
      tool: 'read_file',
      params: { path: 'big.txt' },
    });
    expect(reply.ok).toBe(true);
    const output = (reply as { data: ToolsCallReply }).data.output as { content: string; truncated: boolean };
    expect(output.truncated).toBe(false);
    expect(output.content).toBe(bigText);
    // The caller took the object: nothing waits in the bucket for the TTL.
    await waitUntil(async () => (await storedResults()) === 0, 10_000);
  });

  it('hands the agent loop the stored result as if it had come inline', async () => {
    const sessionId = (await api<{ id: string }>('sessions.create', { title: 'large result' })).id;
    llm.enqueue(
      { toolCalls: [{ name: 'read_file', arguments: { path: 'big.txt' } }] },
      { text: 'The file is long.' },
    );
    const reply = await api<ChatSendReply>('chat.send', { sessionId, message: 'Read big.txt' });
    expect(reply).toMatchObject({ reason: 'final_answer', content: 'The file is long.' });
    const messages = llm.requests.at(-1)!.body.messages as Array<{ role: string; content: string }>;
    const toolResult = messages.find((message) => message.role === 'tool')!;
    expect(toolResult.content).toMatch(/^<tool_output name="read_file"/);
    expect(toolResult.content).toContain('line 0 ....');
    expect(toolResult.content).not.toContain('PAYLOAD_TOO_LARGE');
  });

  it('answers PAYLOAD_TOO_LARGE at once for params the bus cannot carry, and for a reply the API cannot send on NATS', async () => {
    const started = Date.now();
    // Within write_file's own cap (10 MiB) and the params cap (256 KiB), but over the bus's max_payload.
    const tooBig = await httpCall('tools.call', {
      tool: 'write_file',
      params: { path: 'written.txt', content: 'x'.repeat(200_000) },
    });
    expect(tooBig).toMatchObject({
      ok: false,
      error: { code: 'PAYLOAD_TOO_LARGE', details: { direction: 'request', limit: MAX_PAYLOAD } },
    });
    await expect(stat(join(workspaceDir, 'written.txt'))).rejects.toMatchObject({ code: 'ENOENT' });
    // The orchestrator's own NATS reply carrying the whole output is over max_payload too: typed, not silence.
    const viaNats = await api('tools.call', { tool: 'read_file', params: { path: 'big.txt' } }).catch(
      (error: { code: string; details?: unknown }) => error,
    );
    expect(viaNats).toMatchObject({ code: 'PAYLOAD_TOO_LARGE', details: { direction: 'reply' } });
    expect(Date.now() - started).toBeLessThan(10_000);
  });
});
