import { Inject, Injectable, type BeforeApplicationShutdown, type OnModuleInit } from '@nestjs/common';
import type { NatsConnection } from '@nats-io/transport-node';
import type { JsonLogger } from '@talon/service-runtime';
import { LOGGER, NATS_CONNECTION, SECRET_STORE } from '../config/orchestrator.constants.js';
import type { SecretStore } from '../secrets/secret-store.js';
import { McpCredentialScope } from './mcp-credential-scope.js';
import { McpSharedDefinitions } from './mcp-shared-definitions.js';
import { McpSecretsResponder } from './mcp-secrets-responder.js';

/**
 * Serves MCP credentials to tool-workers: the remote servers of the files and of `mcp.add`, followed live (a
 * broken file or an unreachable bucket leaves the scope empty and says so, instead of stopping the orchestrator) and answers `talon.mcp.v1.credentials.*`.
 */
@Injectable()
export class McpSecretsLifecycle implements OnModuleInit, BeforeApplicationShutdown {
  private responder?: McpSecretsResponder;
  private stopFollowing?: () => void;

  constructor(
    @Inject(NATS_CONNECTION) private readonly connection: NatsConnection,
    @Inject(SECRET_STORE) private readonly secrets: SecretStore,
    @Inject(LOGGER) private readonly logger: JsonLogger,
    @Inject(McpSharedDefinitions) private readonly definitions: McpSharedDefinitions,
  ) {}

  async onModuleInit(): Promise<void> {
    let scope: McpCredentialScope;
    try {
      scope = new McpCredentialScope(await this.definitions.remoteDefinitions());
      // Servers added or removed with mcp.add / mcp.remove change the scope as they change.
      this.stopFollowing = await this.definitions.onChange(() => {
        this.definitions
          .remoteDefinitions()
          .then((definitions) => scope.replace(definitions))
          .catch(() => undefined);
      });
    } catch (error) {
      this.logger.write('error', 'MCP server definitions unreadable: no MCP credentials are served', {
        error: (error as Error).message,
      });
      scope = new McpCredentialScope([]);
    }
    this.logger.write('info', 'MCP credentials served to tool-workers', scope.describe());
    this.responder = new McpSecretsResponder(this.connection, this.secrets, scope, this.logger);
    this.responder.start();
  }

  beforeApplicationShutdown(): void {
    this.stopFollowing?.();
    this.responder?.stop();
  }
}
