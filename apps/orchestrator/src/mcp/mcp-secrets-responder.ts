import type { NatsConnection, Subscription } from '@nats-io/transport-node';
import {
  ERROR_CODES,
  MCP_SECRETS_OPERATIONS,
  McpSecretsRequestSchema,
  QUEUE_GROUPS,
  mcpSecretsSubject,
  type Envelope,
  type McpSecretsOperation,
  type McpSecretsReply,
  type McpSecretsRequest,
} from '@talon/contracts';
import { TalonError, toWireError } from '@talon/errors';
import { decodeJsonPayload, encodeJson, validatePayload, type JsonLogger } from '@talon/service-runtime';
import type { SecretStore } from '../secrets/secret-store.js';
import type { McpCredentialScope } from './mcp-credential-scope.js';
import { McpSecretOutOfScopeError } from './mcp-secret-out-of-scope-error.js';

const MAX_REQUEST_BYTES = 80 * 1024;

/**
 * Answers `talon.mcp.v1.credentials.{get,set,delete}` for tool-workers (orchestrators' queue group), inside
 * {@link McpCredentialScope}: values are decrypted only for keys a remote MCP server definition references.
 * NATS is inside Talon's trust boundary (docs/security.md); the scope limits what a worker can reach, and
 * values never appear in logs (only the operation, the key and the outcome).
 */
export class McpSecretsResponder {
  private readonly subscriptions: Subscription[] = [];

  constructor(
    private readonly connection: NatsConnection,
    private readonly secrets: SecretStore,
    private readonly scope: McpCredentialScope,
    private readonly logger: JsonLogger,
  ) {}

  start(): void {
    for (const operation of MCP_SECRETS_OPERATIONS) {
      this.subscriptions.push(
        this.connection.subscribe(mcpSecretsSubject(operation), {
          queue: QUEUE_GROUPS.orchestrator,
          callback: (_error, message) => {
            void this.answer(operation, message.data).then((envelope) =>
              message.respond(encodeJson(envelope)),
            );
          },
        }),
      );
    }
  }

  stop(): void {
    for (const subscription of this.subscriptions.splice(0)) subscription.unsubscribe();
  }

  /** One request: validate, check the scope, then read, write or delete the stored (encrypted) secret. */
  async answer(operation: McpSecretsOperation, data: Uint8Array): Promise<Envelope<McpSecretsReply>> {
    let name = '';
    try {
      const request = validatePayload<McpSecretsRequest>(
        McpSecretsRequestSchema,
        decodeJsonPayload(data, MAX_REQUEST_BYTES),
        `MCP secrets ${operation}`,
      );
      name = request.name;
      const grant = this.scope.grant(name, operation);
      if (!grant || (operation !== 'get' && !grant.writable))
        throw new McpSecretOutOfScopeError(name, operation);
      const reply = await this.perform(operation, grant.storedName, request.value);
      this.logger.write('debug', 'MCP secret served', {
        operation,
        name,
        found: operation === 'get' ? reply.value !== undefined : undefined,
      });
      return { ok: true, data: reply };
    } catch (error) {
      this.logger.write('warn', 'MCP secret request refused', {
        operation,
        name,
        code: TalonError.isInstance(error) ? error.code : 'INTERNAL',
      });
      return { ok: false, error: toWireError(error) };
    }
  }

  private async perform(
    operation: McpSecretsOperation,
    storedName: string,
    value: string | undefined,
  ): Promise<McpSecretsReply> {
    if (operation === 'get') {
      const stored = await this.secrets.valueOf(storedName);
      return stored === undefined ? {} : { value: stored };
    }
    if (operation === 'delete') {
      await this.secrets.delete(storedName);
      return {};
    }
    if (value === undefined)
      throw new TalonError(ERROR_CODES.SCHEMA_VIOLATION, 'MCP secrets set needs a value.');
    // OAuth entries get no host patterns, so no tool call is ever granted them.
    await this.secrets.set(storedName, value, { hostPatterns: [] });
    return {};
  }
}
