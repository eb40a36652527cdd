import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { HandRun, McpViewListReply, RoutinesCreateReply, ToolsListReply } from '@talon/contracts';
import { waitUntil, type TalonApiClient } from '@talon/testing';
import type { LlmTestServer } from '../../../libs/llm/test/support/index.js';
import { MEDIA_MCP_SERVER, startTalonStack, type TalonStack } from './support/talon-stack.js';

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
  let stack: TalonStack;
  let llm: LlmTestServer;
  let api: TalonApiClient;

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
    stack = await startTalonStack({
      name: 'talon-hand-mcp-',
      model: 'openai',
      hands: { sounder: SOUNDER, lost: LOST, noter: NOTER, careful: GATED_NOTER },
      mcpServers: [MEDIA_MCP_SERVER],
      workers: { 'wasm-runner': {} },
      orchestratorEnv: {
        TALON_SCHEDULER_TICK_MS: '250',
        TALON_APPROVAL_TIMEOUT_MS: '120000',
        TALON_SKILL_MCP_START_WAIT_MS: '20000',
      },
      mcpListed: ['media'],
    });
    ({ api, llm } = stack);
  }, 180_000);

  afterAll(() => stack?.close());

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
    const run = await stack.waitForRun(started.id, ['completed', 'failed', 'cancelled']);
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
    const run = await stack.waitForRun(started.id, ['completed', 'failed', 'cancelled']);
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
    const run = await stack.waitForRun(runId, ['completed', 'failed', 'cancelled']);
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
    const waiting = await stack.waitForRun(runId, ['awaiting_approval', 'completed', 'failed']);
    expect(waiting).toMatchObject({ state: 'awaiting_approval', settings: { tone: 'dry' } });
    expect(llm.requests.length).toBe(calls);
    await api.ok<HandRun>('hands.approve', { runId });
    const done = await stack.waitForRun(runId, ['completed', 'failed', 'cancelled']);
    expect(done).toMatchObject({ state: 'completed', result: { content: 'Carefully noted.' } });
  }, 60_000);
});
