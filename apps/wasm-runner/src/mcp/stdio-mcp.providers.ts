import { existsSync, mkdirSync, renameSync } from 'node:fs';
import { join } from 'node:path';
import type { Provider } from '@nestjs/common';
import type { NatsConnection } from '@nats-io/transport-node';
import {
  loadMcpSourceDefinitions,
  openSharedMcpBuckets,
  standardConfigVariables,
  startMcpToolSource,
  type McpToolSource,
} from '@talon/mcp';
import { handOverToSandboxUser, type Sandbox } from '@talon/sandbox';
import { McpControlHost, type JsonLogger } from '@talon/service-runtime';
import type { ToolRegistry } from '@talon/tool-runtime';
import { reportUnreachable } from '../sandbox/runner-sandbox.js';
import type { WasmRunnerConfig } from '../wasm-runner-config.js';
import { parseStdioMcpConfig } from './stdio-mcp-config.js';
import { MCP_CONTROL_HOST, MCP_TOOL_SOURCE } from './stdio-mcp.constants.js';
import { StdioMcpLifecycle } from './stdio-mcp-lifecycle.js';

/**
 * The wasm-runner's stdio MCP servers: definitions from the registry and `TALON_MCP_CONFIG` plus the
 * ones added with `mcp.add` (KV `talon_mcp_servers`, followed live), tools registered from the shared
 * snapshot (KV `talon_mcp_tool_snapshots`, else the local one) (boot starts nothing; a server starts on its first call and
 * stops when idle), and the control subjects `talon.mcp.v1.container.*`.
 */
export function stdioMcpProviders(
  config: WasmRunnerConfig,
  sandbox: Sandbox,
  registry: ToolRegistry,
  connection: NatsConnection,
  logger: JsonLogger,
): Provider[] {
  return [
    {
      provide: MCP_TOOL_SOURCE,
      useFactory: async () => {
        const mcp = parseStdioMcpConfig(process.env, config.stateDir);
        mkdirSync(mcp.dataDir, { recursive: true });
        moveMemoryFileIntoItsDirectory(mcp.dataDir);
        // Servers keep their data below this directory; as root, it belongs to the sandbox user.
        if (sandbox.status.mode === 'bubblewrap') {
          handOverToSandboxUser(mcp.dataDir, sandbox.identity);
          reportUnreachable(sandbox, logger, 'stdio MCP servers that keep data', mcp.dataDir);
        }
        const variables = standardConfigVariables({
          root: mcp.root,
          workspace: config.workspaceDir,
          dataDir: mcp.dataDir,
        });
        const servers = await loadMcpSourceDefinitions({
          ...(mcp.registryDir ? { registryDir: mcp.registryDir } : {}),
          ...(mcp.userConfigFile ? { userConfigFile: mcp.userConfigFile } : {}),
          variables,
          transports: ['stdio'],
        });
        // Servers added with `mcp.add` and the tool lists any runner listed, shared through JetStream.
        const buckets = await openSharedMcpBuckets(connection, {
          snapshots: true,
          log: (level, message, fields) => logger.write(level, message, fields),
        });
        logger.write('info', 'MCP stdio servers configured', {
          servers: servers.map((server) => server.name),
          shared: [...buckets.definitions.entries().keys()],
          sandbox: sandbox.status.mode,
        });
        const source = await startMcpToolSource({
          servers,
          registry,
          shared: {
            definitions: buckets.definitions,
            ...(buckets.snapshots ? { snapshots: buckets.snapshots } : {}),
            variables,
            transports: ['stdio'],
            instanceId: config.instanceId,
          },
          snapshotFile: mcp.snapshotFile,
          maxRunningStdio: mcp.maxRunning,
          manager: { sandbox },
          ...(mcp.idleStopMs !== undefined ? { idleStopMs: mcp.idleStopMs } : {}),
          log: (level, message, fields) => logger.write(level, message, fields),
        });
        return { ...source, close: () => source.close().finally(() => buckets.close()) };
      },
    },
    {
      provide: MCP_CONTROL_HOST,
      inject: [MCP_TOOL_SOURCE],
      useFactory: (source: McpToolSource) =>
        new McpControlHost({
          connection,
          target: source.manager,
          service: 'wasm-runner',
          domain: 'container',
          instanceId: config.instanceId,
        }),
    },
    StdioMcpLifecycle,
  ];
}

/**
 * The registry's memory server kept `<dataDir>/mcp-memory.jsonl`; sandboxed, it may write only its own
 * `<dataDir>/memory/`, so an existing graph moves there once instead of being left behind.
 */
function moveMemoryFileIntoItsDirectory(dataDir: string): void {
  const previous = join(dataDir, 'mcp-memory.jsonl');
  const next = join(dataDir, 'memory', 'mcp-memory.jsonl');
  if (!existsSync(previous) || existsSync(next)) return;
  mkdirSync(join(dataDir, 'memory'), { recursive: true });
  renameSync(previous, next);
}
