import type { NatsConnection } from '@nats-io/transport-node';
import { mcpSecretsSubject, type McpSecretsReply } from '@talon/contracts';
import type { McpSecretsStore } from '@talon/mcp';
import { NatsRequester } from '@talon/service-runtime';

/** Default wait for the orchestrator's answer (a database read or write). */
export const DEFAULT_MCP_SECRETS_TIMEOUT_MS = 5_000;

/**
 * The tool-worker's {@link McpSecretsStore}: every read and write goes to the orchestrator on
 * `talon.mcp.v1.credentials.<operation>`, where values stay encrypted at rest and only keys a remote MCP
 * server definition references are served. Nothing is cached here, so a secret set or rotated with
 * `secrets.set` is used on the next connect. Failures (refused key, no orchestrator) arrive as typed errors.
 */
export class NatsMcpSecretsStore implements McpSecretsStore {
  private readonly requester: NatsRequester;

  constructor(
    connection: NatsConnection,
    private readonly timeoutMs = DEFAULT_MCP_SECRETS_TIMEOUT_MS,
  ) {
    this.requester = new NatsRequester(connection);
  }

  async get(name: string): Promise<string | undefined> {
    const reply = await this.requester.request<McpSecretsReply>(
      mcpSecretsSubject('get'),
      { name },
      { timeoutMs: this.timeoutMs },
    );
    return reply.value;
  }

  async set(name: string, value: string): Promise<void> {
    await this.requester.request<McpSecretsReply>(
      mcpSecretsSubject('set'),
      { name, value },
      { timeoutMs: this.timeoutMs },
    );
  }

  async delete(name: string): Promise<void> {
    await this.requester.request<McpSecretsReply>(
      mcpSecretsSubject('delete'),
      { name },
      { timeoutMs: this.timeoutMs },
    );
  }
}
