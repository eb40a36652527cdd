import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { chmod, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Kvm } from '@nats-io/kv';
import type { NatsConnection } from '@nats-io/transport-node';
import {
  SHARED_STATE_BUCKETS,
  SUBJECTS,
  type McpDefinitionReply,
  type McpToolSnapshotRecord,
  type McpViewListReply,
  type ToolAnnouncement,
  type ToolWithdrawal,
} from '@talon/contracts';
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

const HOSTILE = join(REPO_ROOT, 'libs/mcp/test/fixtures/hostile-server.mjs');
/** Generous bound for one propagation on a loaded 2-core machine; the printed figures are what counts. */
const PROPAGATION_MS = 30_000;

/** The MCP tools each runner announces right now, by instance. */
class McpToolTracker {
  readonly tools = new Map<string, string[]>();

  record(announcement: ToolAnnouncement): void {
    this.tools.set(
      announcement.instanceId,
      announcement.tools.map((tool) => tool.name).filter((name) => name.startsWith('shared-everything_')),
    );
  }

  withdraw(withdrawal: ToolWithdrawal): void {
    this.tools.delete(withdrawal.instanceId);
  }

  of(instance: string): string[] {
    return [...(this.tools.get(instance) ?? [])].sort();
  }
}

describe('MCP servers added at run time are shared by every wasm-runner (JetStream)', () => {
  let nats: NatsTestServer;
  let database: TestDatabase;
  let bus: NatsConnection;
  let talon: TalonApiClient;
  let orchestrator: ServiceProcess;
  let base: string;
  let userConfig: string;
  const runners = new Map<string, ServiceProcess>();
  const tracker = new McpToolTracker();

  /** The registry's reference server under another name, as an operator would send it. */
  let shared: Record<string, unknown>;

  async function startRunner(id: string, stateDir = join(base, id)): Promise<ServiceProcess> {
    const runner = await startServiceProcess('wasm-runner', {
      NATS_URL: nats.url,
      TALON_INSTANCE_ID: id,
      TALON_STATE_DIR: stateDir,
      TALON_WORKSPACE_DIR: join(base, 'workspace'),
      TALON_MCP_REGISTRY_DIR: join(base, 'no-registry'),
      TALON_MCP_CONFIG: userConfig,
    });
    runners.set(id, runner);
    return runner;
  }

  beforeAll(async () => {
    const everything = JSON.parse(
      await readFile(join(REPO_ROOT, 'registry/mcp-servers/everything.json'), 'utf8'),
    ) as Record<string, unknown>;
    shared = { ...everything, name: 'shared-everything' };
    base = await mkdtemp(join(tmpdir(), 'talon-shared-mcp-'));
    await chmod(base, 0o755);
    await mkdir(join(base, 'no-registry'), { recursive: true });
    await mkdir(join(base, 'workspace'), { recursive: true });
    userConfig = join(base, 'mcp.json');
    await writeFile(
      userConfig,
      JSON.stringify([
        {
          name: 'hostile',
          transport: { type: 'stdio', command: process.execPath, args: [HOSTILE] },
          sandbox: { read_paths: [join(REPO_ROOT, 'libs/mcp'), join(REPO_ROOT, 'node_modules')] },
        },
      ]),
    );
    [nats, database] = await Promise.all([startNatsTestServer(), createTestDatabase()]);
    bus = await nats.connect('orchestrator');
    bus.subscribe(SUBJECTS.toolAnnounce, {
      callback: (_error, message) => tracker.record(message.json<ToolAnnouncement>()),
    });
    bus.subscribe(SUBJECTS.toolWithdraw, {
      callback: (_error, message) => tracker.withdraw(message.json<ToolWithdrawal>()),
    });
    orchestrator = await startServiceProcess('orchestrator', {
      NATS_URL: nats.url,
      DATABASE_URL: database.url,
      TALON_HTTP_PORT: String(await findFreePort()),
      TALON_GRPC_PORT: String(await findFreePort()),
      TALON_MCP_REGISTRY_DIR: join(base, 'no-registry'),
      TALON_MCP_CONFIG: userConfig,
    });
    await Promise.all([startRunner('runner-a'), startRunner('runner-b')]);
    talon = await connectTalonApi(nats.url);
  }, 180_000);

  afterAll(async () => {
    await talon?.connection.close();
    await bus?.close();
    await Promise.all(
      [orchestrator, ...runners.values()].map((service) => service?.stop().catch(() => undefined)),
    );
    await nats?.stop();
    await database?.drop();
    await rm(base, { recursive: true, force: true });
  });

  it('mcp.add on the API: both runners configure the server and announce the same tools', async () => {
    const started = Date.now();
    const reply = await talon.ok<McpDefinitionReply>('mcp.add', { definition: shared });
    expect(reply).toMatchObject({
      name: 'shared-everything',
      source: 'api',
      transport: 'stdio',
      change: 'added',
    });
    // A registry announces as each tool is registered, so wait for both to settle on the whole list.
    const settled = () =>
      tracker.of('runner-a').includes('shared-everything_get-sum') &&
      JSON.stringify(tracker.of('runner-a')) === JSON.stringify(tracker.of('runner-b'));
    await waitUntil(settled, PROPAGATION_MS, 'both runners announce the added server tools');
    const seenMs = Date.now() - started;
    expect(tracker.of('runner-a')).toEqual(tracker.of('runner-b'));
    expect(tracker.of('runner-a')).toContain('shared-everything_echo');
    const listed = (await talon.ok<McpViewListReply>('mcp.list', {})).servers;
    expect(listed.find((server) => server.name === 'shared-everything')).toMatchObject({
      source: 'api',
      domain: 'container',
    });
    expect(listed.find((server) => server.name === 'hostile')).toMatchObject({ source: 'file' });
    // The tool list one runner listed is shared, named by the runner and the definition's fingerprint. It is
    // written after the runner registered (and announced) the tools, so it may land a moment later.
    const snapshots = await new Kvm(bus).open(SHARED_STATE_BUCKETS.mcpToolSnapshots);
    let snapshot: McpToolSnapshotRecord | undefined;
    await waitUntil(
      async () => {
        snapshot = (await snapshots.get('shared-everything'))?.json<McpToolSnapshotRecord>();
        return snapshot !== undefined;
      },
      PROPAGATION_MS,
      'the shared tool list written',
    );
    expect(snapshot?.tools.map((tool) => `shared-everything_${tool.name}`).sort()).toEqual(
      expect.arrayContaining(tracker.of('runner-a')),
    );
    console.log(`[shared-mcp] mcp.add → tools announced by both runners: ${seenMs} ms`);
  });

  it('a call through the queue group works on either runner', async () => {
    const reply = await talon.ok<{ text: string; instanceId: string }>('mcp.call', {
      tool: 'shared-everything.echo',
      arguments: { message: 'shared hello' },
    });
    expect(reply.text).toContain('shared hello');
  });

  it('refuses bad definitions with typed errors naming the field', async () => {
    const invalid = await talon.call('mcp.add', {
      definition: { name: 'broken', transport: { type: 'stdio' } },
    });
    expect(invalid.ok).toBe(false);
    if (!invalid.ok) {
      expect(invalid.error.code).toBe('SCHEMA_VIOLATION');
      expect(JSON.stringify(invalid.error)).toContain('transport');
    }
    const plaintext = await talon.call('mcp.add', {
      definition: {
        name: 'leaky',
        transport: {
          type: 'streamable-http',
          url: 'https://mcp.example.com/mcp',
          headers: { Authorization: 'Bearer abcdef0123456789' },
        },
      },
    });
    expect(plaintext.ok).toBe(false);
    if (!plaintext.ok) {
      expect(plaintext.error.code).toBe('SCHEMA_VIOLATION');
      expect(plaintext.error.details).toMatchObject({ field: 'transport.headers.Authorization' });
    }
    const unknownVariable = await talon.call('mcp.add', {
      definition: { name: 'typo', transport: { type: 'stdio', command: '${NOPE}/bin/server' } },
    });
    expect(!unknownVariable.ok && unknownVariable.error.code).toBe('SCHEMA_VIOLATION');
    const collision = await talon.call('mcp.add', {
      definition: { name: 'hostile', transport: { type: 'stdio', command: process.execPath } },
    });
    expect(!collision.ok && collision.error.code).toBe('NAME_CONFLICT');
    const fileRemoval = await talon.call('mcp.remove', { server: 'hostile' });
    expect(!fileRemoval.ok && fileRemoval.error.code).toBe('NAME_CONFLICT');
    const unknown = await talon.call('mcp.remove', { server: 'never-added' });
    expect(!unknown.ok && unknown.error.code).toBe('NOT_FOUND');
    // Nothing of the refused definitions reached the shared bucket.
    const definitions = await new Kvm(bus).open(SHARED_STATE_BUCKETS.mcpServers);
    const keys: string[] = [];
    for await (const key of await definitions.keys()) keys.push(key);
    expect(keys).toEqual(['shared-everything']);
  });

  it('a restarted runner with an empty state folder lists the same tools from the shared snapshot', async () => {
    const before = tracker.of('runner-a');
    await runners.get('runner-b')!.stop();
    tracker.tools.delete('runner-b');
    const started = Date.now();
    await startRunner('runner-b', join(base, 'runner-b-fresh'));
    await waitUntil(
      () => tracker.of('runner-b').length >= before.length,
      PROPAGATION_MS,
      'the restarted runner announces the shared tools',
    );
    expect(tracker.of('runner-b')).toEqual(before);
    console.log(`[shared-mcp] restart with empty folder → tools announced: ${Date.now() - started} ms`);
  });

  it('mcp.remove (server running): both runners stop it and withdraw its tools', async () => {
    // Make sure it runs somewhere while it is removed.
    await talon.ok('mcp.start', { server: 'shared-everything' });
    const started = Date.now();
    const reply = await talon.ok<McpDefinitionReply>('mcp.remove', { server: 'shared-everything' });
    expect(reply).toMatchObject({ name: 'shared-everything', change: 'removed' });
    await waitUntil(
      () => tracker.of('runner-a').length === 0 && tracker.of('runner-b').length === 0,
      PROPAGATION_MS,
      'both runners withdraw the removed server tools',
    );
    console.log(`[shared-mcp] mcp.remove → tools gone from both runners: ${Date.now() - started} ms`);
    const listed = (await talon.ok<McpViewListReply>('mcp.list', {})).servers;
    expect(listed.map((server) => server.name)).not.toContain('shared-everything');
    const snapshots = await new Kvm(bus).open(SHARED_STATE_BUCKETS.mcpToolSnapshots);
    const left = await snapshots.get('shared-everything');
    expect(left === null || left.operation !== 'PUT').toBe(true);
  });
});
