/**
 * Where MCP credentials live: bearer secrets named in server definitions and OAuth tokens and client
 * registrations. The integrator plugs in the encrypted secrets store; tests use an in-memory map.
 */
export interface McpSecretsStore {
  get(name: string): Promise<string | undefined>;
  set(name: string, value: string): Promise<void>;
  delete(name: string): Promise<void>;
}

/** A {@link McpSecretsStore} in a Map: for tests and for single-process tools, never for production secrets. */
export class InMemoryMcpSecretsStore implements McpSecretsStore {
  private readonly values = new Map<string, string>();

  constructor(initial: Record<string, string> = {}) {
    for (const [name, value] of Object.entries(initial)) this.values.set(name, value);
  }

  async get(name: string): Promise<string | undefined> {
    return this.values.get(name);
  }

  async set(name: string, value: string): Promise<void> {
    this.values.set(name, value);
  }

  async delete(name: string): Promise<void> {
    this.values.delete(name);
  }
}
