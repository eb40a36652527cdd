import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The install root (holds `registry/`), found from this file in `apps/tool-worker/dist/mcp`. */
const INSTALL_ROOT = fileURLToPath(new URL('../../../../', import.meta.url));

/** Settings of a tool-worker's remote (streamable HTTP and SSE) MCP servers, read once at start. */
export interface RemoteMcpConfig {
  /** The install root for `${TALON_ROOT}` (env `TALON_ROOT`). */
  root: string;
  /**
   * Registry of server definitions (env `TALON_MCP_REGISTRY_DIR`, which must exist). Default
   * `<root>/registry/mcp-servers` when that exists (an install without it just has no registry servers).
   */
  registryDir?: string;
  /** A JSON list of extra or replacing server definitions (env `TALON_MCP_CONFIG`); none by default. */
  userConfigFile?: string;
  /** For `${TALON_WORKSPACE}` and `${TALON_DATA_DIR}` in shared files. Default `.talon/state` (env `TALON_STATE_DIR`). */
  stateDir: string;
}

export function parseRemoteMcpConfig(env: NodeJS.ProcessEnv, cwd = process.cwd()): RemoteMcpConfig {
  const root = resolve(cwd, env.TALON_ROOT || INSTALL_ROOT);
  return {
    root,
    ...registryDirOf(env, root, cwd),
    ...(env.TALON_MCP_CONFIG ? { userConfigFile: resolve(cwd, env.TALON_MCP_CONFIG) } : {}),
    stateDir: resolve(cwd, env.TALON_STATE_DIR || '.talon/state'),
  };
}

function registryDirOf(env: NodeJS.ProcessEnv, root: string, cwd: string): { registryDir?: string } {
  if (env.TALON_MCP_REGISTRY_DIR) return { registryDir: resolve(cwd, env.TALON_MCP_REGISTRY_DIR) };
  const fallback = resolve(root, 'registry/mcp-servers');
  return existsSync(fallback) ? { registryDir: fallback } : {};
}
