// A call for a tool this instance does not serve yet waits a moment for it, and asks the missing-tool
// resolvers, before it fails: with several replicas sharing installed tools and MCP tool lists, a call can
// arrive right after another replica added the tool.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { NatsConnection } from '@nats-io/transport-node';
import type { ToolCallRequest, ToolDefinition } from '@talon/contracts';
import { startNatsTestServer, type NatsTestServer } from '@talon/testing';
import { ToolRegistry, type Tool } from '@talon/tool-runtime';
import { JsonLogger } from '../src/json-logger.js';
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

  function hostWith(registry: ToolRegistry, missingToolWaitMs = 50): ToolHost {
    return new ToolHost({
      missingToolWaitMs,
      connection,
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
    let started = Date.now();
    await expect(host.handleCall(request('nowhere'))).rejects.toMatchObject({ code: 'UNKNOWN_TOOL' });
    expect(Date.now() - started).toBeGreaterThanOrEqual(55);
    const remove = host.addMissingToolResolver(async () => undefined);
    await expect(host.handleCall(request('nowhere'))).rejects.toMatchObject({ code: 'UNKNOWN_TOOL' });
    remove();
    // Without a wait and without resolvers: at once.
    const immediate = hostWith(new ToolRegistry(), 0);
    started = Date.now();
    await expect(immediate.handleCall(request('nowhere'))).rejects.toMatchObject({ code: 'UNKNOWN_TOOL' });
    expect(Date.now() - started).toBeLessThan(50);
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
});
