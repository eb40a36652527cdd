import type { ToolLogger, ToolRegistry } from '@talon/tool-runtime';
import { McpManager, type McpManagerOptions } from './mcp-manager.js';
import { syncMcpToolsIntoRegistry } from './mcp-registry-sync.js';
import type { McpServerDefinition } from './mcp-server-config.js';
import { readMcpToolSnapshot, writeMcpToolSnapshot } from './mcp-tool-snapshot-file.js';

/** Options of {@link startMcpToolSource}. */
export interface McpToolSourceOptions {
  servers: readonly McpServerDefinition[];
  /** The worker's registry the MCP tools are kept in. */
  registry: ToolRegistry;
  /**
   * Where the last tool lists are kept. When set, remembered tools are registered at boot without starting
   * any server (each starts on its first call) and the file is rewritten whenever a list changes.
   */
  snapshotFile?: string;
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
  /** Resolves when pending snapshot writes are done. */
  flush(): Promise<void>;
  close(): Promise<void>;
}

/**
 * MCP servers as a tool source of one worker: an {@link McpManager} whose adapted tools are mirrored into
 * the registry (refusals logged), with the tool-list snapshot read at start and kept up to date.
 */
export async function startMcpToolSource(options: McpToolSourceOptions): Promise<McpToolSource> {
  const servers = options.servers.map((definition) =>
    options.idleStopMs === undefined ? definition : { ...definition, idleStopMs: options.idleStopMs },
  );
  const known = options.snapshotFile ? await readMcpToolSnapshot(options.snapshotFile) : {};
  const configured = new Set(servers.map((definition) => definition.name));
  const knownTools = Object.fromEntries(Object.entries(known).filter(([name]) => configured.has(name)));
  const sync = syncMcpToolsIntoRegistry(options.registry, (name, error) =>
    options.log('warn', 'MCP tool refused by the registry', {
      tool: name,
      code: (error as { code?: string }).code,
      error: (error as Error).message,
    }),
  );
  // The manager reports its remembered tools from its constructor, before `manager` is assigned.
  let constructed = false;
  let writing: Promise<void> = Promise.resolve();
  const saveSnapshot = () => {
    const { snapshotFile } = options;
    if (!snapshotFile || !constructed) return;
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
      if (status.state === 'down')
        options.log('warn', 'MCP server down', { server: status.name, error: status.lastError });
    },
  });
  constructed = true;
  return {
    manager,
    flush: () => writing,
    close: async () => {
      await manager.close();
      await writing;
    },
  };
}
