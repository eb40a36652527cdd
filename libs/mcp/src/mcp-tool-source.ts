import type { ToolLogger, ToolRegistry } from '@talon/tool-runtime';
import type { McpToolInfo } from './mcp-connection.js';
import { McpManager, type McpManagerOptions } from './mcp-manager.js';
import { syncMcpToolsIntoRegistry } from './mcp-registry-sync.js';
import type { McpServerDefinition } from './mcp-server-config.js';
import { readMcpToolSnapshot, writeMcpToolSnapshot } from './mcp-tool-snapshot-file.js';
import { SharedMcpServersFollower, type SharedMcpStateOptions } from './shared-mcp-servers-follower.js';

/** Options of {@link startMcpToolSource}. */
export interface McpToolSourceOptions {
  /** The servers of the deployment's files (registry, `TALON_MCP_CONFIG`). */
  servers: readonly McpServerDefinition[];
  /** The worker's registry the MCP tools are kept in. */
  registry: ToolRegistry;
  /**
   * Where the last tool lists are kept. When set, remembered tools are registered at boot without starting
   * any server (each starts on its first call) and the file is rewritten whenever a list changes.
   */
  snapshotFile?: string;
  /**
   * Servers added with `mcp.add` and stdio tool lists, shared by every replica through JetStream and
   * followed for the life of the source (see {@link SharedMcpServersFollower}). Without it only `servers` run.
   */
  shared?: Omit<SharedMcpStateOptions, 'prepare'>;
  /** Replaces every server's `idle_stop_ms` (0 never stops). */
  idleStopMs?: number;
  maxRunningStdio?: number;
  log: ToolLogger;
  /** Anything else for the manager (transport factory, secrets, result mapping). */
  manager?: Omit<McpManagerOptions, 'servers' | 'knownTools' | 'onToolsChanged' | 'maxRunningStdio'>;
}

/** A running MCP tool source: its manager and a close function. */
export interface McpToolSource {
  manager: McpManager;
  /** Resolves when pending snapshot writes (and shared reconciles) are done. */
  flush(): Promise<void>;
  close(): Promise<void>;
}

/**
 * MCP servers as a tool source of one worker: an {@link McpManager} whose adapted tools are mirrored into
 * the registry (refusals logged), with the tool-list snapshot read at start and kept up to date, and the
 * shared definitions and snapshots followed when `shared` is given.
 */
export async function startMcpToolSource(options: McpToolSourceOptions): Promise<McpToolSource> {
  const withIdle = (definition: McpServerDefinition): McpServerDefinition =>
    options.idleStopMs === undefined ? definition : { ...definition, idleStopMs: options.idleStopMs };
  const files = options.servers.map(withIdle);
  const local = options.snapshotFile ? await readMcpToolSnapshot(options.snapshotFile) : {};
  const shared = options.shared && { ...options.shared, prepare: withIdle };
  const { servers, knownTools } = shared
    ? SharedMcpServersFollower.initial(files, shared, options.log, local)
    : { servers: files, knownTools: onlyConfigured(local, files) };
  const sync = syncMcpToolsIntoRegistry(options.registry, (name, error) =>
    options.log('warn', 'MCP tool refused by the registry', {
      tool: name,
      code: (error as { code?: string }).code,
      error: (error as Error).message,
    }),
  );
  // The manager reports its remembered tools from its constructor, before `manager` is assigned.
  let constructed = false;
  let follower: SharedMcpServersFollower | undefined;
  let writing: Promise<void> = Promise.resolve();
  const saveSnapshot = () => {
    if (!constructed) return;
    follower?.publishSnapshots();
    const { snapshotFile } = options;
    if (!snapshotFile) return;
    const snapshot = manager.toolSnapshot();
    writing = writing
      .then(() => writeMcpToolSnapshot(snapshotFile, snapshot))
      .catch((error: unknown) =>
        options.log('warn', 'MCP tool snapshot not written', { file: snapshotFile, error: String(error) }),
      );
  };
  const idleSweepMs = Math.min(
    1_000,
    ...servers.filter((server) => server.idleStopMs > 0).map((server) => Math.max(50, server.idleStopMs / 4)),
  );
  const manager: McpManager = new McpManager({
    ...options.manager,
    servers,
    idleSweepMs,
    ...(options.maxRunningStdio ? { maxRunningStdio: options.maxRunningStdio } : {}),
    ...(Object.keys(knownTools).length > 0 ? { knownTools } : {}),
    onToolsChanged: (tools, unusable) => {
      sync(tools);
      for (const entry of unusable)
        options.log('warn', 'MCP tool unusable', { tool: entry.displayName, reason: entry.reason });
      saveSnapshot();
    },
    onStatusChanged: (status) => {
      options.manager?.onStatusChanged?.(status);
      // A server lists its tools before it counts as running, and only running servers' lists are
      // shared: share the first list once it does.
      if (status.state === 'running') follower?.publishSnapshots();
      if (status.state === 'down')
        options.log('warn', 'MCP server down', { server: status.name, error: status.lastError });
    },
  });
  constructed = true;
  if (shared) {
    follower = new SharedMcpServersFollower(manager, files, shared, options.log);
    follower.start();
  }
  return {
    manager,
    flush: async () => {
      await follower?.flush();
      await writing;
    },
    close: async () => {
      await follower?.close();
      await manager.close();
      await writing;
    },
  };
}

function onlyConfigured(
  tools: Readonly<Record<string, readonly McpToolInfo[]>>,
  servers: readonly McpServerDefinition[],
): Record<string, readonly McpToolInfo[]> {
  const names = new Set(servers.map((server) => server.name));
  return Object.fromEntries(Object.entries(tools).filter(([name]) => names.has(name)));
}
