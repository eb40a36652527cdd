import { resolve } from 'node:path';
import type { Provider } from '@nestjs/common';
import type { NatsConnection } from '@nats-io/transport-node';
import {
  loadMcpSourceDefinitions,
  openSharedMcpBuckets,
  standardConfigVariables,
  startMcpToolSource,
  type McpToolSource,
} from '@talon/mcp';
import { McpControlHost, type JsonLogger } from '@talon/service-runtime';
import type { ToolRegistry } from '@talon/tool-runtime';
import type { ToolWorkerConfig } from '../tool-worker-config.js';
import { parseRemoteMcpConfig } from './remote-mcp-config.js';
import { McpAuthorizeHost } from './mcp-authorize-host.js';
import { NatsMcpSecretsStore } from './nats-mcp-secrets-store.js';
import { MCP_AUTHORIZE_HOST, MCP_CONTROL_HOST, MCP_TOOL_SOURCE } from './remote-mcp.constants.js';
import { RemoteMcpOAuth } from './remote-mcp-oauth.js';
import { RemoteMcpLifecycle } from './remote-mcp-lifecycle.js';

/**
 * A tool-worker's remote MCP servers (streamable HTTP and SSE from the registry and `TALON_MCP_CONFIG`).
 * Every replica connects on its own once the worker runs (see {@link RemoteMcpLifecycle}), so any replica
 * in the queue group can serve a call; control arrives by scatter on `talon.mcp.v1.orchestrator.*`.
 */
export function remoteMcpProviders(
  config: ToolWorkerConfig,
  registry: ToolRegistry,
  connection: NatsConnection,
  logger: JsonLogger,
): Provider[] {
  const oauth = new RemoteMcpOAuth(
    new NatsMcpSecretsStore(connection),
    parseRemoteMcpConfig(process.env).oauthRedirectUrl,
  );
  return [
    {
      provide: MCP_TOOL_SOURCE,
      useFactory: async () => {
        const mcp = parseRemoteMcpConfig(process.env);
        const variables = standardConfigVariables({
          root: mcp.root,
          workspace: resolve(mcp.stateDir, 'workspace'),
          dataDir: resolve(mcp.stateDir, 'mcp-data'),
        });
        const servers = await loadMcpSourceDefinitions({
          ...(mcp.registryDir ? { registryDir: mcp.registryDir } : {}),
          ...(mcp.userConfigFile ? { userConfigFile: mcp.userConfigFile } : {}),
          variables,
          transports: ['streamable-http', 'sse'],
        });
        // Servers added with `mcp.add`, followed live; remote servers connect on every replica, so no snapshots.
        const buckets = await openSharedMcpBuckets(connection, {
          snapshots: false,
          log: (level, message, fields) => logger.write(level, message, fields),
        });
        logger.write('info', 'MCP remote servers configured', {
          servers: servers.map((server) => server.name),
          shared: [...buckets.definitions.entries().keys()],
        });
        const source = await startMcpToolSource({
          servers,
          registry,
          shared: {
            definitions: buckets.definitions,
            variables,
            transports: ['streamable-http', 'sse'],
            instanceId: config.instanceId,
          },
          log: (level, message, fields) => logger.write(level, message, fields),
          // Bearer secrets and OAuth entries come from the orchestrator's encrypted store over NATS.
          // Every remote MCP and OAuth request goes through the SSRF guard with the worker's allowlist.
          manager: {
            secrets: oauth.secrets,
            oauthProviderFor: oauth.providerFor,
            network: { allowlist: config.ssrfAllowlist },
          },
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
          target: {
            start: (server) => source.manager.start(server),
            stop: (server) => source.manager.stop(server),
            list: () => oauth.withAuthorizationUrls(source.manager.list()),
            listResources: (server, cursor) => source.manager.listResources(server, cursor),
            readResource: (server, uri) => source.manager.readResource(server, uri),
            listPrompts: (server, cursor) => source.manager.listPrompts(server, cursor),
            getPrompt: (server, name, args) => source.manager.getPrompt(server, name, args),
          },
          service: 'tool-worker',
          domain: 'orchestrator',
          instanceId: config.instanceId,
        }),
    },
    {
      provide: MCP_AUTHORIZE_HOST,
      inject: [MCP_TOOL_SOURCE],
      useFactory: (source: McpToolSource) =>
        new McpAuthorizeHost(connection, source.manager, oauth, config.instanceId, logger),
    },
    RemoteMcpLifecycle,
  ];
}
