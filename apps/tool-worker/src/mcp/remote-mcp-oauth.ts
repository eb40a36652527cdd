import { timingSafeEqual } from 'node:crypto';
import type { McpAuthorizeRequest, McpServerListing } from '@talon/contracts';
import { TalonError } from '@talon/errors';
import {
  McpAuthorizationRequiredError,
  SecretsStoreOAuthProvider,
  type McpManager,
  type McpSecretsStore,
  type McpServerDefinition,
} from '@talon/mcp';
import { AuthorizationStateMismatchError } from './authorization-state-mismatch-error.js';
import { NoPendingAuthorizationError } from './no-pending-authorization-error.js';
import { ReplicaOAuthSecretsStore } from './replica-oauth-secrets-store.js';

/**
 * OAuth for one tool-worker's remote MCP servers: one {@link SecretsStoreOAuthProvider} per server (tokens,
 * client registration, PKCE verifier kept through the orchestrator's encrypted store), the authorization
 * URL each server waits on, and the state check before a code is exchanged.
 */
export class RemoteMcpOAuth {
  private readonly providers = new Map<string, SecretsStoreOAuthProvider>();
  private readonly pending = new Map<string, URL>();
  private readonly oauthSecrets: ReplicaOAuthSecretsStore;

  constructor(
    /** Where bearer secrets and OAuth entries are read and written (the orchestrator's store over NATS). */
    readonly secrets: McpSecretsStore,
    /** Talon's callback; each server gets `<redirectBase>/<server>` so the redirect names its server. */
    private readonly redirectBase: string,
  ) {
    this.oauthSecrets = new ReplicaOAuthSecretsStore(secrets);
  }

  /** The provider of an OAuth server (the same one on every reconnect, so the pending URL is kept). */
  readonly providerFor = (definition: McpServerDefinition): SecretsStoreOAuthProvider => {
    // Called for every connect attempt: tokens are read afresh then (a sign-out counts from the next start).
    this.oauthSecrets.refresh(definition.name);
    let provider = this.providers.get(definition.name);
    if (!provider) {
      const auth = definition.auth.type === 'oauth' ? definition.auth : undefined;
      provider = new SecretsStoreOAuthProvider({
        server: definition.name,
        secrets: this.oauthSecrets,
        redirectUrl: `${this.redirectBase.replace(/\/+$/, '')}/${definition.name}`,
        ...(auth?.clientName ? { clientName: auth.clientName } : {}),
        ...(auth?.scopes ? { scopes: auth.scopes } : {}),
        onAuthorizationUrl: (url) => void this.pending.set(definition.name, url),
      });
      this.providers.set(definition.name, provider);
    }
    return provider;
  };

  /** Adds `authorizationUrl` to servers that wait for a person (and forgets it once a server runs). */
  withAuthorizationUrls(listings: McpServerListing[]): McpServerListing[] {
    return listings.map((listing) => {
      const url = this.pending.get(listing.name);
      if (!url) return listing;
      if (listing.state === 'running') {
        this.pending.delete(listing.name);
        return listing;
      }
      return { ...listing, authorizationUrl: url.toString() };
    });
  }

  /**
   * Exchanges the code of a redirect for tokens if `state` is the one in this worker's pending URL (a
   * code is used once: the pending URL is forgotten first), then connects the server.
   */
  async authorize(manager: McpManager, request: McpAuthorizeRequest): Promise<void> {
    manager.definitionOf(request.server);
    const url = this.pending.get(request.server);
    if (!url) throw new NoPendingAuthorizationError(request.server);
    if (!sameText(url.searchParams.get('state') ?? '', request.state))
      throw new AuthorizationStateMismatchError(request.server);
    this.pending.delete(request.server);
    try {
      await manager.finishAuthorization(request.server, request.code);
    } catch (error) {
      if (TalonError.isInstance(error)) throw error;
      throw new McpAuthorizationRequiredError(
        `Finishing the OAuth authorization of MCP server "${request.server}" failed: ${(error as Error).message}. Run mcp.start for a new authorization URL.`,
        { details: { server: request.server }, cause: error },
      );
    }
  }
}

function sameText(a: string, b: string): boolean {
  const left = Buffer.from(a);
  const right = Buffer.from(b);
  return left.length === right.length && left.length > 0 && timingSafeEqual(left, right);
}
