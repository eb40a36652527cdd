import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { InvalidConfigError } from '@talon/service-runtime';

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
  /**
   * Talon's OAuth callback for remote servers with `auth.type: 'oauth'`; each server registers
   * `<url>/<server>` (env `TALON_MCP_OAUTH_REDIRECT_URL`). Default `http://127.0.0.1:8080/mcp/oauth/callback`.
   */
  oauthRedirectUrl: string;
}

/** Default base of the OAuth redirect URL (the orchestrator's default HTTP address). */
export const DEFAULT_MCP_OAUTH_REDIRECT_URL = 'http://127.0.0.1:8080/mcp/oauth/callback';

export function parseRemoteMcpConfig(env: NodeJS.ProcessEnv, cwd = process.cwd()): RemoteMcpConfig {
  const root = resolve(cwd, env.TALON_ROOT || INSTALL_ROOT);
  return {
    root,
    ...registryDirOf(env, root, cwd),
    ...(env.TALON_MCP_CONFIG ? { userConfigFile: resolve(cwd, env.TALON_MCP_CONFIG) } : {}),
    stateDir: resolve(cwd, env.TALON_STATE_DIR || '.talon/state'),
    oauthRedirectUrl: oauthRedirectUrlOf(env.TALON_MCP_OAUTH_REDIRECT_URL),
  };
}

function registryDirOf(env: NodeJS.ProcessEnv, root: string, cwd: string): { registryDir?: string } {
  if (env.TALON_MCP_REGISTRY_DIR) return { registryDir: resolve(cwd, env.TALON_MCP_REGISTRY_DIR) };
  const fallback = resolve(root, 'registry/mcp-servers');
  return existsSync(fallback) ? { registryDir: fallback } : {};
}

function oauthRedirectUrlOf(value: string | undefined): string {
  if (!value) return DEFAULT_MCP_OAUTH_REDIRECT_URL;
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new InvalidConfigError('TALON_MCP_OAUTH_REDIRECT_URL', value, 'an absolute http(s) URL');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    throw new InvalidConfigError('TALON_MCP_OAUTH_REDIRECT_URL', value, 'an absolute http(s) URL');
  return url.toString();
}
