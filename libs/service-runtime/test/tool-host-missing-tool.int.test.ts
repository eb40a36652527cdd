// A call for a tool this instance does not serve yet waits a moment for it, and asks the missing-tool
// resolvers, before it fails: with several replicas sharing installed tools and MCP tool lists, a call can
// arrive right after another replica added the tool.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { headers as natsHeaders, type NatsConnection } from '@nats-io/transport-node';
import { HEADERS, SUBJECTS, type ToolCallRequest, type ToolDefinition } from '@talon/contracts';
import { startNatsTestServer, type NatsTestServer } from '@talon/testing';
import { ToolRegistry, type Tool } from '@talon/tool-runtime';
import { JsonLogger } from '../src/json-logger.js';
import { ToolCallRequester } from '../src/tool-call-requester.js';
import { ToolHost } from '../src/tool-host.js';

function lateTool(name: string): Tool {
  const definition: ToolDefinition = {
    name,
    description: 'Answers with its params.',
    parameters: { type: 'object', properties: { message: { type: 'string' } } },
    effects: [],
    approval: 'never',
    timeoutMs: 5_000,
    domain: 'container',
    source: 'wasm',
    sensitiveParams: [],
    idempotent: true,
  };
  return { definition, execute: async (params) => params };
}

describe('ToolHost: a call for a tool another replica has just added', () => {
  let nats: NatsTestServer;
  let connection: NatsConnection;

  beforeAll(async () => {
    nats = await startNatsTestServer();
    connection = await nats.connect('wasm-runner');
  }, 30_000);

  afterAll(async () => {
    await connection?.close();
    await nats?.stop();
  });

  function hostWith(registry: ToolRegistry, missingToolWaitMs = 50, on = connection): ToolHost {
    return new ToolHost({
      missingToolWaitMs,
      connection: on,
      registry,
      service: 'wasm-runner',
      domain: 'container',
      instanceId: 'runner-test',
      logger: new JsonLogger({ service: 'wasm-runner', instanceId: 'runner-test' }, 'error', () => undefined),
    });
  }

  const request = (tool: string, timeoutMs = 5_000): ToolCallRequest => ({
    callId: `call-${Math.random()}`,
    tool,
    params: { message: 'hi' },
    timeoutMs,
  });

  it('runs the call once a resolver has brought the tool in', async () => {
    const registry = new ToolRegistry();
    const host = hostWith(registry);
    const asked: string[] = [];
    host.addMissingToolResolver(async (tool) => {
      asked.push(tool);
      await new Promise((resolve) => setTimeout(resolve, 50));
      registry.register(lateTool(tool));
    });
    await expect(host.handleCall(request('late'))).resolves.toMatchObject({
      output: { message: 'hi' },
      instanceId: 'runner-test',
    });
    expect(asked).toEqual(['late']);
    // Served now: the resolvers are not asked again.
    await host.handleCall(request('late'));
    expect(asked).toEqual(['late']);
  });

  it('serves a tool registered during the short wait, without any resolver', async () => {
    const registry = new ToolRegistry();
    const host = hostWith(registry, 5_000);
    setTimeout(() => registry.register(lateTool('listed')), 30);
    const started = Date.now();
    await expect(host.handleCall(request('listed'))).resolves.toMatchObject({ output: { message: 'hi' } });
    // Answered when the tool arrived, not at the end of the wait.
    expect(Date.now() - started).toBeLessThan(2_000);
  });

  it('answers UNKNOWN_TOOL after the wait when neither it nor the resolvers bring the tool', async () => {
    const host = hostWith(new ToolRegistry(), 60);
    const started = Date.now();
    await expect(host.handleCall(request('nowhere'))).rejects.toMatchObject({ code: 'UNKNOWN_TOOL' });
    expect(Date.now() - started).toBeGreaterThanOrEqual(55);
    const remove = host.addMissingToolResolver(async () => undefined);
    await expect(host.handleCall(request('nowhere'))).rejects.toMatchObject({ code: 'UNKNOWN_TOOL' });
    remove();
    // Without a wait and without resolvers: at once.
    const immediate = hostWith(new ToolRegistry(), 0);
    // Ordered against a 30 ms timer rather than timed: a loaded machine delays both alike.
    const first = await Promise.race([
      immediate.handleCall(request('nowhere')).catch((error: unknown) => error),
      new Promise((resolve) => setTimeout(() => resolve('the 30 ms timer'), 30)),
    ]);
    expect(first).toMatchObject({ code: 'UNKNOWN_TOOL' });
  });

  it('waits no longer than the call may live: a resolver that hangs ends in TIMEOUT at the deadline', async () => {
    const host = hostWith(new ToolRegistry());
    host.addMissingToolResolver(() => new Promise<void>(() => undefined));
    const started = Date.now();
    await expect(host.handleCall(request('stuck', 300), Date.now() + 300)).rejects.toMatchObject({
      code: 'TIMEOUT',
    });
    expect(Date.now() - started).toBeGreaterThanOrEqual(280);
    expect(Date.now() - started).toBeLessThan(2_000);
  });

  it('holds a call while it waits for its tool: the failover probe sees it, and when the instance dies the caller gets WORKER_LOST', async () => {
    // The instance serves its call subject and its failover probe as a worker does (no heartbeat: nothing of it
    // outlives the connection); its death is that connection dropping, without a word.
    const instance = await nats.connect('wasm-runner');
    const orchestrator = await nats.connect('orchestrator');
    const host = hostWith(new ToolRegistry(), 0, instance);
    host.addMissingToolResolver(() => new Promise<void>(() => undefined));
    instance.subscribe(SUBJECTS.toolCallCheck('runner-test'), {
      callback: (_error, message) => {
        message.respond(JSON.stringify({ ok: true, data: host.check(message.json()) }));
      },
    });
    instance.subscribe(host.callSubject, {
      callback: (_error, message) => {
        void host
          .handleCall(message.json(), undefined, (subject, instanceId) => {
            const headers = natsHeaders();
            headers.set(HEADERS.ack, instanceId);
            instance.publish(subject, undefined, { headers });
          })
          .catch(() => undefined);
      },
    });
    await instance.flush();
    const requester = new ToolCallRequester(orchestrator, { probeEveryMs: 50, unresponsiveAfterMs: 400 });
    try {
      const started = Date.now();
      const outcome = requester
        .call({ domain: 'container', request: request('coming', 20_000), timeoutMs: 20_000 })
        .then(
          () => ({ settled: Date.now() - started, code: 'ok' }),
          (error: { code?: string }) => ({ settled: Date.now() - started, code: error.code }),
        );
      // Alive and waiting: held through many probe rounds, nothing settles.
      await new Promise((resolve) => setTimeout(resolve, 800));
      const killedAt = Date.now() - started;
      await instance.close();
      const result = await outcome;
      expect(result.code).toBe('WORKER_LOST');
      expect(result.settled).toBeGreaterThanOrEqual(killedAt);
      expect(result.settled - killedAt).toBeLessThan(5_000);
    } finally {
      requester.stop();
      await orchestrator.close();
      if (!instance.isClosed()) await instance.close();
    }
  }, 30_000);
});
