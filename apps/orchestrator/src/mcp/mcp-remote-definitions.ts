import { fileURLToPath } from 'node:url';
import { loadDeploymentMcpDefinitions, type McpServerDefinition } from '@talon/mcp';

/** The install root (holds `registry/`), found from this file in `apps/orchestrator/dist/mcp`. */
const INSTALL_ROOT = fileURLToPath(new URL('../../../../', import.meta.url));

/**
 * Every MCP server definition of the deployment's files (registry, `TALON_MCP_CONFIG`), read from the same
 * files and env as the workers. The orchestrator needs them to know which secrets remote servers reference
 * (see McpCredentialScope) and which names `mcp.add` must leave to the files.
 */
export function loadDeploymentMcpFileDefinitions(
  env: NodeJS.ProcessEnv = process.env,
  cwd = process.cwd(),
): Promise<McpServerDefinition[]> {
  return loadDeploymentMcpDefinitions({
    installRoot: INSTALL_ROOT,
    transports: ['stdio', 'streamable-http', 'sse'],
    env,
    cwd,
  });
}
