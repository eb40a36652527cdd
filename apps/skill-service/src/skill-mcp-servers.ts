import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadMcpSourceDefinitions, standardConfigVariables } from '@talon/mcp';

/** The install root (holds `registry/`), found from this file in `apps/skill-service/dist`. */
const INSTALL_ROOT = fileURLToPath(new URL('../../../', import.meta.url));

/**
 * Names of the MCP servers this deployment configures, over every transport, read from the same files and env
 * as the services that run them (`TALON_ROOT`, `TALON_MCP_REGISTRY_DIR`, `TALON_MCP_CONFIG`). A skill's
 * `requires.mcp` is gated against these names.
 */
export async function loadConfiguredMcpServerNames(
  env: NodeJS.ProcessEnv = process.env,
  cwd = process.cwd(),
): Promise<string[]> {
  const root = resolve(cwd, env.TALON_ROOT || INSTALL_ROOT);
  const stateDir = resolve(cwd, env.TALON_STATE_DIR || '.talon/state');
  const fallbackRegistry = resolve(root, 'registry/mcp-servers');
  const registryDir = env.TALON_MCP_REGISTRY_DIR
    ? resolve(cwd, env.TALON_MCP_REGISTRY_DIR)
    : existsSync(fallbackRegistry)
      ? fallbackRegistry
      : undefined;
  const definitions = await loadMcpSourceDefinitions({
    ...(registryDir ? { registryDir } : {}),
    ...(env.TALON_MCP_CONFIG ? { userConfigFile: resolve(cwd, env.TALON_MCP_CONFIG) } : {}),
    variables: standardConfigVariables({
      root,
      workspace: resolve(stateDir, 'workspace'),
      dataDir: resolve(stateDir, 'mcp-data'),
    }),
    transports: ['stdio', 'streamable-http', 'sse'],
  });
  return definitions.map((definition) => definition.name);
}
