import { fileURLToPath } from 'node:url';
import { loadDeploymentMcpDefinitions, type McpServerDefinition } from '@talon/mcp';

/** The install root (holds `registry/`), found from this file in `apps/orchestrator/dist/mcp`. */
const INSTALL_ROOT = fileURLToPath(new URL('../../../../', import.meta.url));

/**
 * The remote MCP server definitions the tool-workers run, read from the same files and env as they do. The
 * orchestrator needs them only to know which secrets those servers reference (see McpCredentialScope).
 */
export function loadRemoteMcpDefinitions(
  env: NodeJS.ProcessEnv = process.env,
  cwd = process.cwd(),
): Promise<McpServerDefinition[]> {
  return loadDeploymentMcpDefinitions({
    installRoot: INSTALL_ROOT,
    transports: ['streamable-http', 'sse'],
    env,
    cwd,
  });
}
