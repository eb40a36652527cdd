import type { McpSecretsOperation } from '@talon/contracts';
import type { McpServerDefinition } from '@talon/mcp';

/** What SecretsStoreOAuthProvider keeps per OAuth server under `mcp/oauth/<server>/<item>`. */
const OAUTH_ITEMS = ['tokens', 'client', 'verifier', 'discovery', 'state'] as const;
const OAUTH_KEY = /^mcp\/oauth\/([a-zA-Z0-9][a-zA-Z0-9_-]{0,47})\/([a-z]+)$/;

/** Stored names of OAuth entries start with this; no other secret may use it (see SecretStore). */
export const MCP_OAUTH_SECRET_PREFIX = 'mcp.oauth.';

/** A key a tool-worker may use, and the name it is stored under in the `secret` table. */
export interface McpCredentialGrant {
  storedName: string;
  /** OAuth entries are written by the worker; bearer secrets are only read (operators set them). */
  writable: boolean;
}

/**
 * Which secrets tool-workers may reach over `talon.mcp.v1.credentials.*`: the bearer secret named by each
 * configured remote server (read-only) and the OAuth entries of each server with `auth.type: 'oauth'`.
 * Anything else is refused, so a worker (or anything else on NATS) cannot read arbitrary secrets this way.
 */
export class McpCredentialScope {
  private readonly bearer = new Set<string>();
  private readonly oauthServers = new Set<string>();

  constructor(definitions: readonly McpServerDefinition[]) {
    this.replace(definitions);
  }

  /** Takes the servers as they are now (a definition added or removed with `mcp.add` / `mcp.remove`). */
  replace(definitions: readonly McpServerDefinition[]): void {
    this.bearer.clear();
    this.oauthServers.clear();
    for (const definition of definitions) {
      if (definition.transport.type === 'stdio') continue;
      if (definition.auth.type === 'bearer') this.bearer.add(definition.auth.secret);
      if (definition.auth.type === 'oauth') this.oauthServers.add(definition.name);
    }
  }

  /** The grant for `key` under `operation`, or undefined when the key is not an MCP credential. */
  grant(key: string, operation: McpSecretsOperation): McpCredentialGrant | undefined {
    const oauth = OAUTH_KEY.exec(key);
    if (oauth) {
      const [, server = '', item = ''] = oauth;
      if (!this.oauthServers.has(server) || !(OAUTH_ITEMS as readonly string[]).includes(item))
        return undefined;
      return { storedName: `${MCP_OAUTH_SECRET_PREFIX}${server}.${item}`, writable: true };
    }
    if (operation !== 'get' || !this.bearer.has(key) || key.startsWith(MCP_OAUTH_SECRET_PREFIX))
      return undefined;
    return { storedName: key, writable: false };
  }

  /** How many keys are in scope, for the start-up log (never the names of values). */
  describe(): { bearerSecrets: number; oauthServers: number } {
    return { bearerSecrets: this.bearer.size, oauthServers: this.oauthServers.size };
  }
}
