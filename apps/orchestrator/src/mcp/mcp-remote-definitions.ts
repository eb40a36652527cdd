import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadMcpSourceDefinitions, standardConfigVariables, type McpServerDefinition } from '@talon/mcp';

/** The install root (holds `registry/`), found from this file in `apps/orchestrator/dist/mcp`. */
const INSTALL_ROOT = fileURLToPath(new URL('../../../../', import.meta.url));

/**
 * The remote MCP server definitions the tool-workers run, read from the same files and env as they do
 * (`TALON_ROOT`, `TALON_MCP_REGISTRY_DIR`, `TALON_MCP_CONFIG`, `TALON_STATE_DIR`). The orchestrator needs
 * them only to know which secrets those servers reference (see McpCredentialScope).
 */
export function loadRemoteMcpDefinitions(
  env: NodeJS.ProcessEnv = process.env,
  cwd = process.cwd(),
): Promise<McpServerDefinition[]> {
  const root = resolve(cwd, env.TALON_ROOT || INSTALL_ROOT);
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
    transports: ['streamable-http', 'sse'],
  });
}
