import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { DEFAULT_MAX_RUNNING_STDIO } from '@talon/mcp';
import { InvalidConfigError, readPositiveInt } from '@talon/service-runtime';

/** The install root (holds `node_modules` and `registry/`), found from this file in `apps/wasm-runner/dist/mcp`. */
const INSTALL_ROOT = fileURLToPath(new URL('../../../../', import.meta.url));

/** Settings of the wasm-runner's stdio MCP servers, read once at start. */
export interface StdioMcpConfig {
  /** The install root for `${TALON_ROOT}` (env `TALON_ROOT`). */
  root: string;
  /**
   * Registry of server definitions (env `TALON_MCP_REGISTRY_DIR`, which must exist). Default
   * `<root>/registry/mcp-servers` when that exists (an install without it just has no registry servers).
   */
  registryDir?: string;
  /** A JSON list of extra or replacing server definitions (env `TALON_MCP_CONFIG`); none by default. */
  userConfigFile?: string;
  /** Replaces every server's `idle_stop_ms`; 0 never stops (env `TALON_MCP_IDLE_MS`). Default: per server. */
  idleStopMs?: number;
  /** Stdio servers running at once (env `TALON_MCP_MAX_RUNNING`). Default 8. */
  maxRunning: number;
  /** The remembered tool lists, so boot starts no server. Default `<stateDir>/mcp-tools.json`. */
  snapshotFile: string;
  /** Where servers keep data (`${TALON_DATA_DIR}`). Default `<stateDir>/mcp-data`. */
  dataDir: string;
}

export function parseStdioMcpConfig(
  env: NodeJS.ProcessEnv,
  stateDir: string,
  cwd = process.cwd(),
): StdioMcpConfig {
  const root = resolve(cwd, env.TALON_ROOT || INSTALL_ROOT);
  const idle = env.TALON_MCP_IDLE_MS;
  if (idle !== undefined && idle !== '' && !(Number.isInteger(Number(idle)) && Number(idle) >= 0)) {
    throw new InvalidConfigError(
      'TALON_MCP_IDLE_MS',
      idle,
      'milliseconds, 0 or more (0 never stops idle servers)',
    );
  }
  return {
    root,
    ...registryDirOf(env, root, cwd),
    ...(env.TALON_MCP_CONFIG ? { userConfigFile: resolve(cwd, env.TALON_MCP_CONFIG) } : {}),
    ...(idle ? { idleStopMs: Number(idle) } : {}),
    maxRunning: readPositiveInt(env, 'TALON_MCP_MAX_RUNNING', DEFAULT_MAX_RUNNING_STDIO),
    snapshotFile: resolve(stateDir, 'mcp-tools.json'),
    dataDir: resolve(stateDir, 'mcp-data'),
  };
}

function registryDirOf(env: NodeJS.ProcessEnv, root: string, cwd: string): { registryDir?: string } {
  if (env.TALON_MCP_REGISTRY_DIR) return { registryDir: resolve(cwd, env.TALON_MCP_REGISTRY_DIR) };
  const fallback = resolve(root, 'registry/mcp-servers');
  return existsSync(fallback) ? { registryDir: fallback } : {};
}
