import { fileURLToPath } from 'node:url';
import { loadDeploymentMcpDefinitions } from '@talon/mcp';

/** The install root (holds `registry/`), found from this file in `apps/skill-service/dist`. */
const INSTALL_ROOT = fileURLToPath(new URL('../../../', import.meta.url));

/**
 * Names of the MCP servers this deployment configures, over every transport, read from the same files and env
 * as the services that run them. A skill's `requires.mcp` is gated against these names.
 */
export async function loadConfiguredMcpServerNames(
  env: NodeJS.ProcessEnv = process.env,
  cwd = process.cwd(),
): Promise<string[]> {
  const definitions = await loadDeploymentMcpDefinitions({
    installRoot: INSTALL_ROOT,
    transports: ['stdio', 'streamable-http', 'sse'],
    env,
    cwd,
  });
  return definitions.map((definition) => definition.name);
}
