import type { McpSecretsStore } from '@talon/mcp';

const OAUTH_KEY = /^mcp\/oauth\/([^/]+)\/([a-z]+)$/;
/** Belong to one replica's pending authorization: never shared, lost with the process (as is the pending URL). */
const LOCAL_ITEMS = new Set(['verifier', 'state']);
/** How long tokens read from the shared store are reused. */
export const DEFAULT_TOKENS_TTL_MS = 30_000;

/**
 * The OAuth view of the shared MCP secrets store for one tool-worker replica. Every replica of a server
 * without tokens starts its own authorization (its own registration, PKCE verifier and state), and all
 * of them would overwrite each other's entries in the shared store; the person finishes only one. So
 * the verifier and state stay in this process, and the client registration this replica used is kept
 * here too until tokens exist: the replica that gets the tokens writes them together with its client,
 * and a replica that then finds shared tokens drops its own registration and uses the shared one.
 */
export class ReplicaOAuthSecretsStore implements McpSecretsStore {
  private readonly local = new Map<string, string>();
  private readonly ownClient = new Map<string, string>();
  private readonly tokens = new Map<string, { value: string; until: number }>();

  constructor(
    private readonly shared: McpSecretsStore,
    /**
     * The SDK reads the tokens before every request; they are kept this long so a call does not wait for
     * the orchestrator. Every connect reads them afresh (see {@link refresh}), so a sign-out
     * (`secrets.delete`) counts from the next start; a running connection notices within this. Default 30 s.
     */
    private readonly tokensTtlMs = DEFAULT_TOKENS_TTL_MS,
  ) {}

  /** Forgets the reused tokens of a server, so the next read asks the shared store (called on every connect). */
  refresh(server: string): void {
    this.tokens.delete(server);
  }

  async get(name: string): Promise<string | undefined> {
    const key = parse(name);
    if (!key) return this.shared.get(name);
    if (LOCAL_ITEMS.has(key.item)) return this.local.get(name);
    if (key.item === 'client') return this.ownClient.get(key.server) ?? this.shared.get(name);
    if (key.item !== 'tokens') return this.shared.get(name);
    const cached = this.tokens.get(key.server);
    if (cached && cached.until > Date.now()) return cached.value;
    const value = await this.shared.get(name);
    if (value === undefined) {
      this.tokens.delete(key.server);
      return undefined;
    }
    this.ownClient.delete(key.server);
    this.tokens.set(key.server, { value, until: Date.now() + this.tokensTtlMs });
    return value;
  }

  async set(name: string, value: string): Promise<void> {
    const key = parse(name);
    if (!key) return this.shared.set(name, value);
    if (LOCAL_ITEMS.has(key.item)) {
      this.local.set(name, value);
      return;
    }
    if (key.item === 'client') this.ownClient.set(key.server, value);
    if (key.item === 'tokens') {
      // The tokens were issued to this replica's client: share that registration with them.
      const client = this.ownClient.get(key.server);
      if (client !== undefined) await this.shared.set(`mcp/oauth/${key.server}/client`, client);
      this.ownClient.delete(key.server);
      this.tokens.delete(key.server);
    }
    await this.shared.set(name, value);
  }

  async delete(name: string): Promise<void> {
    const key = parse(name);
    if (key && LOCAL_ITEMS.has(key.item)) {
      this.local.delete(name);
      return;
    }
    if (key?.item === 'client') this.ownClient.delete(key.server);
    if (key?.item === 'tokens') this.tokens.delete(key.server);
    await this.shared.delete(name);
  }
}

function parse(name: string): { server: string; item: string } | undefined {
  const match = OAUTH_KEY.exec(name);
  return match ? { server: match[1] ?? '', item: match[2] ?? '' } : undefined;
}
