import { fileURLToPath } from 'node:url';
import type { Provider } from '@nestjs/common';
import type { NatsConnection } from '@nats-io/transport-node';
import { loadDeploymentMcpDefinitions, McpServerNamesFollower, openSharedMcpBuckets } from '@talon/mcp';
import type { JsonLogger } from '@talon/service-runtime';
import { SKILL_MCP_SERVERS } from './skill-service.constants.js';

/** The install root (holds `registry/`), found from this file in `apps/skill-service/dist`. */
const INSTALL_ROOT = fileURLToPath(new URL('../../../', import.meta.url));

/** What the lifecycle stops at shutdown. */
export interface SkillMcpServersRuntime {
  names: McpServerNamesFollower;
  close(): Promise<void>;
}

/**
 * The MCP servers a skill's `requires.mcp` is gated against: the ones this deployment's files define, over
 * every transport (read from the same files and env as the services that run them), plus the ones added
 * with `mcp.add`, followed live in KV `talon_mcp_servers` (read-only here: the orchestrator writes it).
 */
export function skillMcpServersProvider(connection: NatsConnection, logger: JsonLogger): Provider {
  return {
    provide: SKILL_MCP_SERVERS,
    useFactory: async (): Promise<SkillMcpServersRuntime> => {
      const files = await loadDeploymentMcpDefinitions({
        installRoot: INSTALL_ROOT,
        transports: ['stdio', 'streamable-http', 'sse'],
      });
      const buckets = await openSharedMcpBuckets(connection, {
        snapshots: false,
        log: (level, message, fields) => logger.write(level, message, fields),
      });
      const names = new McpServerNamesFollower(files, buckets.definitions, (level, message, fields) =>
        logger.write(level, message, fields),
      );
      return {
        names,
        close: async () => {
          names.close();
          await buckets.close();
        },
      };
    },
  };
}
