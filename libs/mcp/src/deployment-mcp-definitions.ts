import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import type { McpTransportType } from '@talon/contracts';
import { standardConfigVariables } from './mcp-config-variables.js';
import type { McpServerDefinition } from './mcp-server-config.js';
import { loadMcpSourceDefinitions } from './mcp-source-definitions.js';

/**
 * The MCP server definitions of this deployment, read from the same files and env every service uses
 * (`TALON_ROOT` or `installRoot`, `TALON_MCP_REGISTRY_DIR`, `TALON_MCP_CONFIG`, `TALON_STATE_DIR`), kept to
 * the given transports. Services that only need to know about servers others run (the orchestrator for
 * credential scopes, the skill-service for `requires.mcp`) call this instead of reading the files themselves.
 */
export function loadDeploymentMcpDefinitions(options: {
  installRoot: string;
  transports: readonly McpTransportType[];
  env?: NodeJS.ProcessEnv;
  cwd?: string;
}): Promise<McpServerDefinition[]> {
  const env = options.env ?? process.env;
  const cwd = options.cwd ?? process.cwd();
  const root = resolve(cwd, env.TALON_ROOT || options.installRoot);
  const stateDir = resolve(cwd, env.TALON_STATE_DIR || '.talon/state');
  const fallbackRegistry = resolve(root, 'registry/mcp-servers');
  const registryDir = env.TALON_MCP_REGISTRY_DIR
    ? resolve(cwd, env.TALON_MCP_REGISTRY_DIR)
    : existsSync(fallbackRegistry)
      ? fallbackRegistry
      : undefined;
  return loadMcpSourceDefinitions({
    ...(registryDir ? { registryDir } : {}),
    ...(env.TALON_MCP_CONFIG ? { userConfigFile: resolve(cwd, env.TALON_MCP_CONFIG) } : {}),
    variables: standardConfigVariables({
      root,
      workspace: resolve(stateDir, 'workspace'),
      dataDir: resolve(stateDir, 'mcp-data'),
    }),
    transports: options.transports,
  });
}
