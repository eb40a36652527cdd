import type { NatsConnection, Subscription } from '@nats-io/transport-node';
import {
  QUEUE_GROUPS,
  WASM_DECLARED_SECRETS_SUBJECT,
  WasmDeclaredSecretsRequestSchema,
  type Envelope,
  type WasmDeclaredSecretsReply,
  type WasmDeclaredSecretsRequest,
} from '@talon/contracts';
import { toWireError } from '@talon/errors';
import { decodeJsonPayload, encodeJson, validatePayload } from '@talon/service-runtime';
import type { ToolInstaller } from '@talon/wasm-host';

const MAX_REQUEST_BYTES = 4096;

/**
 * Tells the orchestrator which credentials an installed tool's capabilities declare (secret name and the host
 * patterns it is injected for), so a model's call is granted those secrets and no others. Never values.
 */
export class DeclaredSecretsResponder {
  private subscription?: Subscription;

  constructor(
    private readonly connection: NatsConnection,
    private readonly installer: ToolInstaller,
  ) {}

  start(): void {
    this.subscription = this.connection.subscribe(WASM_DECLARED_SECRETS_SUBJECT, {
      queue: QUEUE_GROUPS['wasm-runner'],
      callback: (_error, message) => {
        message.respond(encodeJson(this.answer(message.data)));
      },
    });
  }

  stop(): void {
    this.subscription?.unsubscribe();
  }

  private answer(data: Uint8Array): Envelope<WasmDeclaredSecretsReply> {
    try {
      const { tool } = validatePayload<WasmDeclaredSecretsRequest>(
        WasmDeclaredSecretsRequestSchema,
        decodeJsonPayload(data, MAX_REQUEST_BYTES),
        'declared-secrets request',
      );
      const credentials = this.installer.get(tool)?.version.capabilities.credentials ?? [];
      return {
        ok: true,
        data: {
          credentials: credentials.map((credential) => ({
            secretName: credential.secret_name,
            hostPatterns: [...credential.host_patterns],
          })),
        },
      };
    } catch (error) {
      return { ok: false, error: toWireError(error) };
    }
  }
}
