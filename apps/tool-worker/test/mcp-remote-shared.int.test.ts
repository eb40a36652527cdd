import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { ChildProcess } from 'node:child_process';
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { NatsConnection } from '@nats-io/transport-node';
import {
  SUBJECTS,
  type McpDefinitionReply,
  type McpViewListReply,
  type ToolAnnouncement,
  type ToolsCallReply,
  type ToolWithdrawal,
} from '@talon/contracts';
import {
  connectTalonApi,
  createTestDatabase,
  findFreePort,
  startNatsTestServer,
  startServiceProcess,
  waitUntil,
  type NatsTestServer,
  type ServiceProcess,
  type TalonApiClient,
  type TestDatabase,
} from '@talon/testing';
import { startEverything } from './support/everything-http-server.js';

/** Generous bound for one propagation on a loaded 2-core machine; the printed figures are what counts. */
const PROPAGATION_MS = 30_000;
const SERVER = 'added-remote';

describe('a remote MCP server added with mcp.add is followed by every tool-worker (talon_mcp_servers)', () => {
  let nats: NatsTestServer;
  let database: TestDatabase;
  let talon: TalonApiClient;
  /** Watches announcements as the orchestrator does (the api user may not). */
  let bus: NatsConnection;
  let orchestrator: ServiceProcess;
  let everything: ChildProcess;
  let base: string;
  let url: string;
  const workers: ServiceProcess[] = [];
  /** The tools of the added server each worker announces right now, by instance. */
  const announced = new Map<string, string[]>();
  const toolsOf = (instance: string) => [...(announced.get(instance) ?? [])].sort();
  let instances: string[] = [];

  beforeAll(async () => {
    base = await mkdtemp(join(tmpdir(), 'talon-remote-mcp-shared-'));
    await mkdir(join(base, 'no-registry'), { recursive: true });
    const port = await findFreePort();
    url = `http://127.0.0.1:${port}/mcp`;
    everything = await startEverything('streamableHttp', port);
    [nats, database] = await Promise.all([startNatsTestServer(), createTestDatabase()]);
    talon = await connectTalonApi(nats.url);
    bus = await nats.connect('orchestrator');
    bus.subscribe(SUBJECTS.toolAnnounce, {
      callback: (_error, message) => {
        const announcement = message.json<ToolAnnouncement>();
        announced.set(
          announcement.instanceId,
          announcement.tools.map((tool) => tool.name).filter((name) => name.startsWith(`${SERVER}_`)),
        );
      },
    });
    bus.subscribe(SUBJECTS.toolWithdraw, {
      callback: (_error, message) => {
        announced.delete(message.json<ToolWithdrawal>().instanceId);
      },
    });
    orchestrator = await startServiceProcess('orchestrator', {
      NATS_URL: nats.url,
      DATABASE_URL: database.url,
      TALON_HTTP_PORT: String(await findFreePort()),
      TALON_GRPC_PORT: String(await findFreePort()),
      TALON_MCP_REGISTRY_DIR: join(base, 'no-registry'),
    });
    workers.push(
      ...(await Promise.all(
        ['worker-a', 'worker-b'].map((id) =>
          startServiceProcess('tool-worker', {
            NATS_URL: nats.url,
            TALON_INSTANCE_ID: id,
            TALON_STATE_DIR: join(base, id),
            TALON_MCP_REGISTRY_DIR: join(base, 'no-registry'),
            // The MCP server listens on loopback, which the SSRF guard refuses unless allowlisted.
            TALON_SSRF_ALLOWLIST: '127.0.0.1/32',
          }),
        ),
      )),
    );
    instances = workers.map((worker) => String(worker.logs.find((line) => line.msg === 'ready')?.instance));
  }, 120_000);

  afterAll(async () => {
    await talon?.connection.close();
    await bus?.close();
    await Promise.all([orchestrator, ...workers].map((service) => service?.stop().catch(() => undefined)));
    everything?.kill('SIGTERM');
    await nats?.stop();
    await database?.drop();
    await rm(base, { recursive: true, force: true });
  });

  const view = async () =>
    (await talon.ok<McpViewListReply>('mcp.list', {})).servers.find((entry) => entry.name === SERVER);

  it('mcp.add: both workers connect and announce the same tools', async () => {
    expect(await view()).toBeUndefined();
    const started = Date.now();
    const reply = await talon.ok<McpDefinitionReply>('mcp.add', {
      definition: { name: SERVER, transport: { type: 'streamable-http', url }, effects: ['network'] },
    });
    expect(reply).toMatchObject({
      name: SERVER,
      source: 'api',
      transport: 'streamable-http',
      change: 'added',
    });
    const [a, b] = instances as [string, string];
    // A registry announces as each tool is registered, so wait for both to settle on the whole list: equal
    // lists alone can be two workers caught at the same point midway (CI once saw both at 5 tools).
    await waitUntil(
      () =>
        [`${SERVER}_echo`, `${SERVER}_get-sum`].every((tool) => toolsOf(a).includes(tool)) &&
        JSON.stringify(toolsOf(a)) === JSON.stringify(toolsOf(b)),
      PROPAGATION_MS,
      'both workers announce the added server tools',
    );
    const seenMs = Date.now() - started;
    expect(toolsOf(a)).toEqual(toolsOf(b));
    expect(toolsOf(a)).toContain(`${SERVER}_get-sum`);
    await waitUntil(
      async () => (await view())?.instances.filter((instance) => instance.state === 'running').length === 2,
      PROPAGATION_MS,
      'the added server running on both workers',
    );
    const listed = (await view())!;
    expect(listed).toMatchObject({ source: 'api', domain: 'orchestrator', transport: 'streamable-http' });
    expect(listed.instances.map((instance) => instance.instanceId).sort()).toEqual([...instances].sort());
    console.log(`[remote-mcp-shared] mcp.add → tools announced by both workers: ${seenMs} ms`);
  });

  it('calls the added server through the queue group', async () => {
    const served = new Set<string>();
    for (let i = 0; i < 6; i++) {
      const reply = await talon.ok<ToolsCallReply>('tools.call', {
        tool: `${SERVER}_echo`,
        params: { message: `shared remote ${i}` },
      });
      expect(reply.text).toContain(`shared remote ${i}`);
      served.add(reply.instanceId!);
    }
    for (const instance of served) expect(instances).toContain(instance);
    const sum = await talon.ok<ToolsCallReply>('mcp.call', {
      tool: `${SERVER}.get-sum`,
      arguments: { a: 2, b: 3 },
    });
    expect(sum.text).toContain('5');
  });

  it('mcp.remove: both workers disconnect and withdraw its tools', async () => {
    const started = Date.now();
    const reply = await talon.ok<McpDefinitionReply>('mcp.remove', { server: SERVER });
    expect(reply).toMatchObject({ name: SERVER, change: 'removed' });
    await waitUntil(
      () => instances.every((instance) => toolsOf(instance).length === 0),
      PROPAGATION_MS,
      'both workers withdraw the removed server tools',
    );
    const goneMs = Date.now() - started;
    await waitUntil(async () => (await view()) === undefined, PROPAGATION_MS, 'mcp.list drops the server');
    const call = await talon.call('tools.call', { tool: `${SERVER}_echo`, params: { message: 'gone' } });
    expect(call.ok).toBe(false);
    // The workers themselves are still serving: they announce again without the server.
    for (const instance of instances) expect(announced.has(instance)).toBe(true);
    console.log(`[remote-mcp-shared] mcp.remove → tools gone from both workers: ${goneMs} ms`);
  });
});
