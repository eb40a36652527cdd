import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { chmod, mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { HandRun, McpViewListReply, RoutinesCreateReply, ToolsListReply } from '@talon/contracts';
import {
  connectTalonApi,
  createTestDatabase,
  findFreePort,
  REPO_ROOT,
  startNatsTestServer,
  startServiceProcess,
  waitUntil,
  type NatsTestServer,
  type ServiceProcess,
  type TalonApiClient,
  type TestDatabase,
} from '@talon/testing';
import { startOpenAiCompatibleServer, type LlmTestServer } from '../../../libs/llm/test/support/index.js';

/**
 * A hand's MCP servers are started when its run starts (their tools join the run's allowlist, so the model
 * is offered them), and hand jobs a routine fires get their hand run, listed like those of hands.execute.
 */

const SOUNDER = `id = "sounder"
name = "Sounder"
description = "Plays a short tone from its MCP server."
tools = ["memory_read"]
mcp_servers = ["media"]
[agent]
system_prompt = "Play a tone with media_tone."
`;

const LOST = `id = "lost"
name = "Lost"
description = "Names an MCP server nobody defined."
tools = ["memory_read"]
mcp_servers = ["nowhere"]
`;

const NOTER = `id = "noter"
name = "Noter"
description = "Notes things in the tone chosen."
tools = ["memory_read"]

[[settings]]
key = "tone"
label = "Tone"
setting_type = "select"
default = "dry"
options = [{ value = "dry", label = "Dry" }, { value = "warm", label = "Warm" }]

[agent]
system_prompt = "Note what you are told."
`;

const GATED_NOTER = NOTER.replace('id = "noter"', 'id = "careful"').replace(
  'tools = ["memory_read"]',
  'tools = ["memory_read"]\nrequires_approval = true',
);

/** The last tool result the model was sent. */
function lastToolResult(body: Record<string, unknown>): string {
  const messages = body.messages as Array<{ role: string; content: unknown }>;
  const tool = [...messages].reverse().find((message) => message.role === 'tool');
  return typeof tool?.content === 'string' ? tool.content : JSON.stringify(tool?.content ?? '');
}

describe('hand runs: MCP servers started, routine fires recorded (real NATS, PostgreSQL, wasm-runner)', () => {
  let nats: NatsTestServer;
  let database: TestDatabase;
  let llm: LlmTestServer;
  let api: TalonApiClient;
  let stateDir: string;
  const services: ServiceProcess[] = [];

  async function waitForRun(runId: string, states: string[], timeoutMs = 40_000): Promise<HandRun> {
    let run: HandRun | undefined;
    await waitUntil(
      async () => {
        const reply = await api.call('hands.runs.get', { runId });
        run = reply.ok ? (reply.data as HandRun) : undefined;
        return run !== undefined && states.includes(run.state);
      },
      timeoutMs,
      `run ${runId} in ${states.join('|')}`,
      100,
    ).catch((error: Error) => {
      throw new Error(`${error.message}; last: ${JSON.stringify(run)}`);
    });
    return run!;
  }

  /** Creates a routine firing `action` once, a moment from now, and returns the job (= run) id of its fire. */
  async function fireOnce(name: string, action: Record<string, unknown>): Promise<string> {
    const { routine } = await api.ok<RoutinesCreateReply>('routines.create', {
      name,
      trigger: { kind: 'once', at: new Date(Date.now() + 1_500).toISOString() },
      action,
    });
    let jobId: string | undefined;
    await waitUntil(
      async () => {
        const { fires } = await api.ok<{ fires: Array<{ jobId?: string }> }>('routines.history', {
          id: routine.id,
        });
        jobId = fires.find((fire) => fire.jobId)?.jobId;
        return jobId !== undefined;
      },
      30_000,
      `routine ${name} to fire`,
      100,
    );
    return jobId!;
  }

  beforeAll(async () => {
    [nats, database, llm] = await Promise.all([
      startNatsTestServer(),
      createTestDatabase(),
      startOpenAiCompatibleServer(),
    ]);
    stateDir = await mkdtemp(join(tmpdir(), 'talon-hand-mcp-'));
    // As root the sandbox user must reach the state directory below this temp dir.
    await chmod(stateDir, 0o755);
    const handsDir = join(stateDir, 'hands');
    await mkdir(handsDir);
    for (const [id, text] of [
      ['sounder', SOUNDER],
      ['lost', LOST],
      ['noter', NOTER],
      ['careful', GATED_NOTER],
    ])
      await writeFile(join(handsDir, `${id}.HAND.toml`), text!);
    const mcpConfig = join(stateDir, 'mcp.json');
    await writeFile(
      mcpConfig,
      JSON.stringify([
        {
          name: 'media',
          transport: {
            type: 'stdio',
            command: process.execPath,
            args: [join(REPO_ROOT, 'libs/mcp/test/fixtures/media-server.mjs')],
          },
          sandbox: { read_paths: [join(REPO_ROOT, 'libs/mcp'), join(REPO_ROOT, 'node_modules')] },
          effects: [],
          approval: 'never',
        },
      ]),
    );
    const base = { NATS_URL: nats.url, TALON_STATE_DIR: stateDir };
    services.push(
      await startServiceProcess('wasm-runner', {
        ...base,
        TALON_WORKSPACE_DIR: join(stateDir, 'workspace'),
        TALON_MCP_CONFIG: mcpConfig,
      }),
    );
    services.push(
      await startServiceProcess('orchestrator', {
        ...base,
        DATABASE_URL: database.url,
        TALON_HANDS_DIR: handsDir,
        TALON_HTTP_PORT: String(await findFreePort()),
        TALON_GRPC_PORT: String(await findFreePort()),
        TALON_LLM_PROVIDER: 'openai',
        TALON_LLM_BASE_URL: llm.baseURL,
        TALON_LLM_API_KEY: 'test-key',
        TALON_LLM_MODEL: 'test-model',
        TALON_SCHEDULER_TICK_MS: '250',
        TALON_APPROVAL_TIMEOUT_MS: '120000',
        TALON_SKILL_MCP_START_WAIT_MS: '20000',
        TALON_SECRETS_KEY: Buffer.alloc(32, 7).toString('base64'),
      }),
    );
    api = await connectTalonApi(nats.url);
    await waitUntil(
      async () =>
        (await api.ok<McpViewListReply>('mcp.list', {})).servers.some((server) => server.name === 'media'),
      30_000,
      'the media server listed',
    );
  }, 180_000);

  afterAll(async () => {
    await api?.close();
    await Promise.all(services.map((service) => service.kill()));
    await Promise.all([nats?.stop(), database?.drop(), llm?.close()]);
    await rm(stateDir, { recursive: true, force: true });
  });

  it("starts the hand's stopped MCP server as the run starts; the model is offered its tool and calls it", async () => {
    const media = async () =>
      (await api.ok<McpViewListReply>('mcp.list', {})).servers.find((server) => server.name === 'media')!;
    expect((await media()).state).not.toBe('running');
    const names = (await api.ok<ToolsListReply>('tools.list', {})).tools.map((tool) => tool.definition.name);
    expect(names).not.toContain('media_tone');
    llm.enqueue({ toolCalls: [{ name: 'media_tone', arguments: { samples: 100 } }] }, (body) => ({
      text: `Heard: ${lastToolResult(body)}`,
    }));
    const before = llm.requests.length;
    const started = await api.ok<HandRun>('hands.execute', { id: 'sounder' });
    const run = await waitForRun(started.id, ['completed', 'failed', 'cancelled']);
    expect(run).toMatchObject({
      state: 'completed',
      result: { hand: 'sounder', content: expect.stringContaining('A tone of 100 samples.') },
    });
    expect((await media()).state).toBe('running');
    const first = llm.requests[before]!.body as { tools: Array<{ function: { name: string } }> };
    const offered = first.tools.map((tool) => tool.function.name);
    // Its own tool and the server's tools, nothing else.
    expect(offered).toEqual(expect.arrayContaining(['memory_read', 'media_tone', 'media_dot']));
    expect(offered).toHaveLength(3);
  }, 90_000);

  it('fails the run with UNAVAILABLE naming a server that cannot start, before the model is called', async () => {
    const before = llm.requests.length;
    const started = await api.ok<HandRun>('hands.execute', { id: 'lost' });
    const run = await waitForRun(started.id, ['completed', 'failed', 'cancelled']);
    expect(run).toMatchObject({
      state: 'failed',
      error: { code: 'UNAVAILABLE', message: expect.stringContaining('MCP server "nowhere"') },
    });
    expect(llm.requests.length).toBe(before);
  }, 60_000);

  it("a routine's hand job has its hand run: settings resolved, listed by hands.runs.list as completed", async () => {
    llm.enqueue({ text: 'Noted.' });
    const before = llm.requests.length;
    const runId = await fireOnce('noter routine', {
      kind: 'hand',
      hand: 'noter',
      params: { settings: { tone: 'warm' }, input: 'Note the ward round.' },
    });
    const run = await waitForRun(runId, ['completed', 'failed', 'cancelled']);
    expect(run).toMatchObject({
      hand: 'noter',
      state: 'completed',
      settings: { tone: 'warm' },
      input: 'Note the ward round.',
      requestedBy: expect.stringMatching(/^routine:/),
      result: { hand: 'noter', content: 'Noted.' },
    });
    const { runs } = await api.ok<{ runs: HandRun[] }>('hands.runs.list', {
      hand: 'noter',
      state: 'completed',
    });
    expect(runs.map((entry) => entry.id)).toEqual([runId]);
    // The run had the hand's prompt with its settings and only the hand's tools.
    const first = llm.requests[before]!.body as {
      messages: Array<{ content: string }>;
      tools: Array<{ function: { name: string } }>;
    };
    expect(first.messages[0]!.content).toContain('Note what you are told.');
    expect(first.tools.map((tool) => tool.function.name)).toEqual(['memory_read']);
  }, 60_000);

  it("a routine's run of a hand that requires approval waits for hands.approve, then runs", async () => {
    llm.enqueue({ text: 'Carefully noted.' });
    const calls = llm.requests.length;
    const runId = await fireOnce('careful routine', { kind: 'hand', hand: 'careful', params: {} });
    const waiting = await waitForRun(runId, ['awaiting_approval', 'completed', 'failed']);
    expect(waiting).toMatchObject({ state: 'awaiting_approval', settings: { tone: 'dry' } });
    expect(llm.requests.length).toBe(calls);
    await api.ok<HandRun>('hands.approve', { runId });
    const done = await waitForRun(runId, ['completed', 'failed', 'cancelled']);
    expect(done).toMatchObject({ state: 'completed', result: { content: 'Carefully noted.' } });
  }, 60_000);
});
