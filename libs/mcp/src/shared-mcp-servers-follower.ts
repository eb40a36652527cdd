import type { McpToolSnapshotRecord, McpTransportType, SharedMcpServerRecord } from '@talon/contracts';
import type { RecordBucket } from '@talon/shared-state';
import type { ToolLogger } from '@talon/tool-runtime';
import type { ConfigVariables } from './mcp-config-variables.js';
import type { McpToolInfo } from './mcp-connection.js';
import type { McpManager } from './mcp-manager.js';
import type { McpServerDefinition } from './mcp-server-config.js';
import { effectiveMcpDefinitions, mcpDefinitionFingerprint } from './shared-mcp-definitions.js';

/** The shared MCP state one replica follows (see docs/replicas.md). */
export interface SharedMcpStateOptions {
  /** `talon_mcp_servers`: definitions added with `mcp.add`. */
  definitions: RecordBucket<SharedMcpServerRecord>;
  /** `talon_mcp_tool_snapshots`: stdio servers' last tool lists (wasm-runners only; remote servers connect on every replica). */
  snapshots?: RecordBucket<McpToolSnapshotRecord>;
  /** `${NAME}` values for shared definitions, the same as for file ones. */
  variables: ConfigVariables;
  /** The transports this replica runs. */
  transports: readonly McpTransportType[];
  /** Named in the snapshots this replica writes. */
  instanceId: string;
  /** Applied to every shared definition before it runs (e.g. the worker's idle-stop override). */
  prepare?: (definition: McpServerDefinition) => McpServerDefinition;
}

/**
 * Keeps one replica's {@link McpManager} equal to its file definitions plus the shared ones: an `mcp.add`
 * on any replica configures the server here (started at once when no replica has listed its tools yet),
 * an `mcp.remove` stops and drops it. Tool lists are shared too: whenever a server running here lists its
 * tools, the list is written to the snapshot bucket, and a replica that has not started that server offers
 * exactly that list, so every replica lists the same set.
 */
export class SharedMcpServersFollower {
  private readonly stops: Array<() => void> = [];
  private reconciling: Promise<void> = Promise.resolve();
  private writing: Promise<void> = Promise.resolve();
  private pending = false;
  private closed = false;

  constructor(
    private readonly manager: McpManager,
    private readonly files: readonly McpServerDefinition[],
    private readonly shared: SharedMcpStateOptions,
    private readonly log: ToolLogger,
  ) {}

  /** The servers and remembered tools to build the manager with, from the buckets' initial views. */
  static initial(
    files: readonly McpServerDefinition[],
    shared: SharedMcpStateOptions,
    log: ToolLogger,
    local: Readonly<Record<string, readonly McpToolInfo[]>> = {},
  ): { servers: McpServerDefinition[]; knownTools: Record<string, readonly McpToolInfo[]> } {
    const servers = definitionsOf(files, shared, log);
    return { servers, knownTools: { ...pick(local, servers), ...sharedTools(shared, servers) } };
  }

  /** Follows both buckets; starts, in the background, shared servers no replica has listed yet. */
  start(): void {
    this.stops.push(this.shared.definitions.onChange(() => this.schedule()));
    const snapshots = this.shared.snapshots;
    if (snapshots) {
      this.stops.push(
        snapshots.onChange((change) => {
          if (change.kind === 'put') this.adopt(change.value);
        }),
      );
    }
    this.discoverUnlisted(new Set());
  }

  /** Called with every change of the manager's tools: shares the lists of servers running here. */
  publishSnapshots(): void {
    const snapshots = this.shared.snapshots;
    if (!snapshots || this.closed) return;
    const lists = this.manager.toolSnapshot();
    for (const listing of this.manager.list()) {
      if (listing.state !== 'running' || listing.transport !== 'stdio') continue;
      const tools = lists[listing.name];
      if (!tools) continue;
      const fingerprint = mcpDefinitionFingerprint(this.manager.definitionOf(listing.name));
      const current = snapshots.get(listing.name);
      if (current?.fingerprint === fingerprint && JSON.stringify(current.tools) === JSON.stringify(tools))
        continue;
      const record: McpToolSnapshotRecord = {
        server: listing.name,
        fingerprint,
        tools: tools as McpToolSnapshotRecord['tools'],
        listed_at: new Date().toISOString(),
        instance_id: this.shared.instanceId,
      };
      this.writing = this.writing
        .then(() => snapshots.put(listing.name, record))
        .catch((error: unknown) =>
          this.log('warn', 'MCP tool snapshot not shared', { server: listing.name, error: String(error) }),
        );
    }
  }

  /** Resolves when pending reconciles and snapshot writes are done. */
  async flush(): Promise<void> {
    await this.reconciling;
    await this.writing;
  }

  async close(): Promise<void> {
    this.closed = true;
    for (const stop of this.stops.splice(0)) stop();
    await this.flush();
  }

  /** One reconcile at a time; a burst of changes folds into one more. */
  private schedule(): void {
    if (this.pending || this.closed) return;
    this.pending = true;
    this.reconciling = this.reconciling.then(async () => {
      this.pending = false;
      await this.reconcile().catch((error: unknown) =>
        this.log('warn', 'shared MCP servers not applied', { error: String(error) }),
      );
    });
  }

  private async reconcile(): Promise<void> {
    const before = new Map(this.manager.list().map((listing) => [listing.name, listing.source]));
    const servers = definitionsOf(this.files, this.shared, this.log);
    await this.manager.setServers(servers, sharedTools(this.shared, servers));
    const after = new Set(servers.map((server) => server.name));
    const added = [...after].filter((name) => !before.has(name));
    const removed = [...before.keys()].filter((name) => !after.has(name));
    if (added.length + removed.length > 0)
      this.log('info', 'shared MCP servers followed', { added, removed });
    this.discoverUnlisted(new Set(before.keys()));
  }

  /** Shared servers configured here with no tools known: start them once so their tools are listed (and shared). */
  private discoverUnlisted(known: ReadonlySet<string>): void {
    for (const listing of this.manager.list()) {
      if (listing.source !== 'api' || known.has(listing.name) || listing.tools.length > 0) continue;
      if (listing.state !== 'stopped') continue;
      this.manager.start(listing.name).catch((error: unknown) =>
        this.log('warn', 'shared MCP server did not start', {
          server: listing.name,
          error: (error as Error).message,
        }),
      );
    }
  }

  private adopt(record: McpToolSnapshotRecord): void {
    if (record.instance_id === this.shared.instanceId) return;
    let definition: McpServerDefinition;
    try {
      definition = this.manager.definitionOf(record.server);
    } catch {
      return;
    }
    if (mcpDefinitionFingerprint(definition) !== record.fingerprint) return;
    this.manager.adoptTools(record.server, record.tools as McpToolInfo[]);
  }
}

function definitionsOf(
  files: readonly McpServerDefinition[],
  shared: SharedMcpStateOptions,
  log: ToolLogger,
): McpServerDefinition[] {
  const prepare = shared.prepare ?? ((definition: McpServerDefinition) => definition);
  return effectiveMcpDefinitions({
    files,
    shared: shared.definitions.entries(),
    variables: shared.variables,
    transports: shared.transports,
    onRefused: (server, reason) => log('warn', 'shared MCP server not used', { server, reason }),
  }).map((definition) => (definition.source === 'api' ? prepare(definition) : definition));
}

/** The shared snapshots that match the definitions this replica runs. */
function sharedTools(
  shared: SharedMcpStateOptions,
  servers: readonly McpServerDefinition[],
): Record<string, readonly McpToolInfo[]> {
  const known: Record<string, readonly McpToolInfo[]> = {};
  if (!shared.snapshots) return known;
  for (const server of servers) {
    const record = shared.snapshots.get(server.name);
    if (record && record.fingerprint === mcpDefinitionFingerprint(server))
      known[server.name] = record.tools as McpToolInfo[];
  }
  return known;
}

function pick(
  tools: Readonly<Record<string, readonly McpToolInfo[]>>,
  servers: readonly McpServerDefinition[],
): Record<string, readonly McpToolInfo[]> {
  const names = new Set(servers.map((server) => server.name));
  return Object.fromEntries(Object.entries(tools).filter(([name]) => names.has(name)));
}
