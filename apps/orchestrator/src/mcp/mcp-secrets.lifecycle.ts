import { Inject, Injectable, type BeforeApplicationShutdown, type OnModuleInit } from '@nestjs/common';
import type { NatsConnection } from '@nats-io/transport-node';
import type { JsonLogger } from '@talon/service-runtime';
import { LOGGER, NATS_CONNECTION, SECRET_STORE } from '../config/orchestrator.constants.js';
import type { SecretStore } from '../secrets/secret-store.js';
import { McpCredentialScope } from './mcp-credential-scope.js';
import { loadRemoteMcpDefinitions } from './mcp-remote-definitions.js';
import { McpSecretsResponder } from './mcp-secrets-responder.js';

/**
 * Serves MCP credentials to tool-workers: loads the remote server definitions once at start (a broken file
 * leaves the scope empty and says so, instead of stopping the orchestrator) and answers `talon.mcp.v1.credentials.*`.
 */
@Injectable()
export class McpSecretsLifecycle implements OnModuleInit, BeforeApplicationShutdown {
  private responder?: McpSecretsResponder;

  constructor(
    @Inject(NATS_CONNECTION) private readonly connection: NatsConnection,
    @Inject(SECRET_STORE) private readonly secrets: SecretStore,
    @Inject(LOGGER) private readonly logger: JsonLogger,
  ) {}

  async onModuleInit(): Promise<void> {
    let scope: McpCredentialScope;
    try {
      scope = new McpCredentialScope(await loadRemoteMcpDefinitions());
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
    this.responder?.stop();
  }
}
