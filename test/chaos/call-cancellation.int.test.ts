// Chaos: a caller gives up on a running shell call. `sessions.cancel` stops the turn and its call on
// the wasm-runner; a cancel published for a call id stops that call; in both cases the shell's process
// is gone afterwards. A cancel for an unknown call id changes nothing.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { randomUUID } from 'node:crypto';
import { chmod, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { NatsConnection } from '@nats-io/transport-node';
import type {
  ChatEvent,
  ChatSendReply,
  Envelope,
  SessionsCancelReply,
  ToolsCallReply,
} from '@talon/contracts';
import {
  connectTalonApi,
  createTestDatabase,
  findFreePort,
  hostProcessesWith,
  startNatsTestServer,
  startServiceProcess,
  waitUntil,
  waitUntilGone,
  type NatsTestServer,
  type ServiceProcess,
  type TalonApiClient,
  type TestDatabase,
} from '@talon/testing';
import { startOpenAiCompatibleServer, type LlmTestServer } from '../../libs/llm/test/support/index.js';

describe('chaos: cancelling a running call', () => {
  let nats: NatsTestServer;
  let database: TestDatabase;
  let llm: LlmTestServer;
  let stateDir: string;
  let orchestrator: ServiceProcess;
  let runner: ServiceProcess;
  let talon: TalonApiClient;
  let bus: NatsConnection;

  beforeAll(async () => {
    [nats, database, llm] = await Promise.all([
      startNatsTestServer(),
      createTestDatabase(),
      startOpenAiCompatibleServer(),
    ]);
    stateDir = await mkdtemp(join(tmpdir(), 'talon-cancel-'));
    // The sandboxed shell runs as an unprivileged uid: it must be able to reach the workspace.
    await chmod(stateDir, 0o755);
    [orchestrator, runner] = await Promise.all([
      startServiceProcess(
        'orchestrator',
        {
          NATS_URL: nats.url,
          DATABASE_URL: database.url,
          TALON_STATE_DIR: stateDir,
          TALON_HTTP_PORT: String(await findFreePort()),
          TALON_GRPC_PORT: String(await findFreePort()),
          TALON_LLM_PROVIDER: 'openai',
          TALON_LLM_BASE_URL: llm.baseURL,
          TALON_LLM_API_KEY: 'test-key',
          TALON_LLM_MODEL: 'test-model',
        },
        { timeoutMs: 90_000 },
      ),
      startServiceProcess(
        'wasm-runner',
        {
          NATS_URL: nats.url,
          TALON_STATE_DIR: stateDir,
          TALON_WORKSPACE_DIR: join(stateDir, 'workspace'),
        },
        { timeoutMs: 90_000 },
      ),
    ]);
    talon = await connectTalonApi(nats.url);
    bus = await nats.connect('orchestrator');
    await waitUntil(
      async () => (await talon.call('tools.info', { name: 'shell' })).ok,
      30_000,
      'shell in the catalog',
    );
  }, 150_000);

  afterAll(async () => {
    await bus?.close();
    await talon?.close();
    await Promise.all([orchestrator, runner].map((service) => service?.kill()));
    await llm?.close();
    await nats?.stop();
    await database?.drop();
    if (stateDir) await rm(stateDir, { recursive: true, force: true });
  });

  it('sessions.cancel stops the turn and kills the shell it was running', async () => {
    const marker = `talon-cancel-${randomUUID().slice(0, 8)}`;
    const session = await talon.ok<{ id: string }>('sessions.create', { title: 'cancel' });
    const events: ChatEvent[] = [];
    const subscription = talon.connection.subscribe(`talon.events.v1.session.${session.id}`, {
      callback: (_error, message) => {
        const event = message.json<ChatEvent>();
        events.push(event);
        // The shell may ask first: approve, so the command really runs.
        if (event.type === 'approval_requested')
          void talon.call('approvals.resolve', { id: event.approvalId, decision: 'approve' });
      },
    });
    llm.enqueue(
      { toolCalls: [{ name: 'shell', arguments: { command: `sleep 120; echo ${marker}` } }] },
      { text: 'should not be reached' },
    );
    const turn = talon.call<ChatSendReply>('chat.send', { sessionId: session.id, message: 'wait' }, 60_000);
    await waitUntil(() => hostProcessesWith(marker).length > 0, 30_000, 'the shell process running');
    const cancelledAt = Date.now();
    const reply = await talon.ok<SessionsCancelReply>('sessions.cancel', { id: session.id });
    expect(reply).toMatchObject({ sessionId: session.id, cancelled: true });
    const left = await waitUntilGone(marker, 10_000);
    const goneAfterMs = Date.now() - cancelledAt;
    const finished = await turn;
    subscription.unsubscribe();
    console.log(JSON.stringify({ chaos: 'cancel-turn', processGoneAfterMs: goneAfterMs, left: left.length }));
    expect(left).toEqual([]);
    expect(finished).toMatchObject({ ok: true, data: { reason: 'aborted' } });
    expect(events.some((event) => event.type === 'turn_finished' && event.reason === 'aborted')).toBe(true);
    // Nothing runs now: a second cancel is a no-op.
    expect(await talon.ok<SessionsCancelReply>('sessions.cancel', { id: session.id })).toMatchObject({
      cancelled: false,
    });
  }, 60_000);

  it('a cancel for a call id stops that call on its worker; unknown ids are ignored', async () => {
    const marker = `talon-cancel-${randomUUID().slice(0, 8)}`;
    const callId = randomUUID();
    const call = talon.call<ToolsCallReply>(
      'tools.call',
      { tool: 'shell', params: { command: `sleep 120; echo ${marker}` }, callId, timeoutMs: 60_000 },
      70_000,
    );
    await waitUntil(() => hostProcessesWith(marker).length > 0, 30_000, 'the shell process running');
    // Unknown and malformed cancels change nothing.
    bus.publish('talon.tools.v1.cancel.container', JSON.stringify({ callId: randomUUID() }));
    bus.publish('talon.tools.v1.cancel.container', '{"nope":');
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(hostProcessesWith(marker).length).toBeGreaterThan(0);
    const cancelledAt = Date.now();
    bus.publish('talon.tools.v1.cancel.container', JSON.stringify({ callId, reason: 'test' }));
    const left = await waitUntilGone(marker, 10_000);
    const goneAfterMs = Date.now() - cancelledAt;
    const answered: Envelope<ToolsCallReply> = await call;
    console.log(JSON.stringify({ chaos: 'cancel-call', processGoneAfterMs: goneAfterMs }));
    expect(left).toEqual([]);
    expect(answered.ok).toBe(false);
    // The runner is fine afterwards: the next call runs.
    expect(
      await talon.call('tools.call', { tool: 'shell', params: { command: 'echo still-here' } }),
    ).toMatchObject({
      ok: true,
    });
  }, 60_000);
});
