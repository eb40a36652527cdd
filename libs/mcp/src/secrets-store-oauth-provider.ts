import { randomBytes } from 'node:crypto';
import type { OAuthClientProvider, OAuthDiscoveryState } from '@modelcontextprotocol/sdk/client/auth.js';
import type {
  OAuthClientInformationMixed,
  OAuthClientMetadata,
  OAuthTokens,
} from '@modelcontextprotocol/sdk/shared/auth.js';
import type { McpSecretsStore } from './mcp-secrets-store.js';

/** Options of {@link SecretsStoreOAuthProvider}. */
export interface SecretsStoreOAuthProviderOptions {
  /** The MCP server's name: secrets are kept under `mcp/oauth/<server>/…`. */
  server: string;
  secrets: McpSecretsStore;
  /** Talon's OAuth callback URL (registered with the authorization server). */
  redirectUrl: string;
  clientName?: string;
  scopes?: string[];
  /** Receives the URL a person must open to authorize Talon (the integrator shows it in the UI). */
  onAuthorizationUrl: (url: URL) => void | Promise<void>;
}

type StoredItem = 'tokens' | 'client' | 'verifier' | 'discovery' | 'state';

/**
 * An SDK `OAuthClientProvider` that keeps tokens, the dynamic client registration, the PKCE verifier and
 * the discovery result in the secrets store, so they survive restarts and never sit in config files.
 * Authorization-code flow with PKCE and dynamic client registration; public client (no secret).
 */
export class SecretsStoreOAuthProvider implements OAuthClientProvider {
  private lastAuthorizationUrl?: URL;

  constructor(private readonly options: SecretsStoreOAuthProviderOptions) {}

  get redirectUrl(): string {
    return this.options.redirectUrl;
  }

  get clientMetadata(): OAuthClientMetadata {
    return {
      client_name: this.options.clientName ?? 'Talon',
      redirect_uris: [this.options.redirectUrl],
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
      token_endpoint_auth_method: 'none',
      ...(this.options.scopes?.length ? { scope: this.options.scopes.join(' ') } : {}),
    };
  }

  /** The authorization URL most recently handed to a person, if any. */
  get pendingAuthorizationUrl(): URL | undefined {
    return this.lastAuthorizationUrl;
  }

  async state(): Promise<string> {
    const state = randomBytes(16).toString('base64url');
    await this.write('state', state);
    return state;
  }

  /** Whether `state` from the callback matches the one sent (checks and forgets it). */
  async checkState(state: string): Promise<boolean> {
    const expected = await this.read('state');
    await this.options.secrets.delete(this.key('state'));
    return expected !== undefined && expected === state;
  }

  clientInformation(): Promise<OAuthClientInformationMixed | undefined> {
    return this.readJson<OAuthClientInformationMixed>('client');
  }

  async saveClientInformation(information: OAuthClientInformationMixed): Promise<void> {
    await this.write('client', JSON.stringify(information));
  }

  tokens(): Promise<OAuthTokens | undefined> {
    return this.readJson<OAuthTokens>('tokens');
  }

  async saveTokens(tokens: OAuthTokens): Promise<void> {
    await this.write('tokens', JSON.stringify(tokens));
  }

  async redirectToAuthorization(authorizationUrl: URL): Promise<void> {
    this.lastAuthorizationUrl = authorizationUrl;
    await this.options.onAuthorizationUrl(authorizationUrl);
  }

  async saveCodeVerifier(codeVerifier: string): Promise<void> {
    await this.write('verifier', codeVerifier);
  }

  async codeVerifier(): Promise<string> {
    const verifier = await this.read('verifier');
    if (!verifier)
      throw new Error(
        `No PKCE code verifier stored for MCP server "${this.options.server}": start the authorization again.`,
      );
    return verifier;
  }

  async saveDiscoveryState(state: OAuthDiscoveryState): Promise<void> {
    await this.write('discovery', JSON.stringify(state));
  }

  discoveryState(): Promise<OAuthDiscoveryState | undefined> {
    return this.readJson<OAuthDiscoveryState>('discovery');
  }

  async invalidateCredentials(scope: 'all' | 'client' | 'tokens' | 'verifier' | 'discovery'): Promise<void> {
    const items: StoredItem[] =
      scope === 'all' ? ['tokens', 'client', 'verifier', 'discovery', 'state'] : [scope];
    await Promise.all(items.map((item) => this.options.secrets.delete(this.key(item))));
  }

  private key(item: StoredItem): string {
    return `mcp/oauth/${this.options.server}/${item}`;
  }

  private read(item: StoredItem): Promise<string | undefined> {
    return this.options.secrets.get(this.key(item));
  }

  private write(item: StoredItem, value: string): Promise<void> {
    return this.options.secrets.set(this.key(item), value);
  }

  private async readJson<T>(item: StoredItem): Promise<T | undefined> {
    const raw = await this.read(item);
    if (raw === undefined) return undefined;
    try {
      return JSON.parse(raw) as T;
    } catch {
      // A damaged entry is dropped so a fresh authorization can replace it.
      await this.options.secrets.delete(this.key(item));
      return undefined;
    }
  }
}
