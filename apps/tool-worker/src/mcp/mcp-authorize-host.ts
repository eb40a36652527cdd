import type { NatsConnection, Subscription } from '@nats-io/transport-node';
import {
  MCP_AUTHORIZE_SUBJECT,
  McpAuthorizeRequestSchema,
  type Envelope,
  type McpAuthorizeRequest,
  type McpInstanceReply,
} from '@talon/contracts';
import { toWireError } from '@talon/errors';
import type { McpManager } from '@talon/mcp';
import { decodeJsonPayload, encodeJson, validatePayload, type JsonLogger } from '@talon/service-runtime';
import type { RemoteMcpOAuth } from './remote-mcp-oauth.js';

const MAX_REQUEST_BYTES = 16 * 1024;

/**
 * Answers {@link MCP_AUTHORIZE_SUBJECT} on every tool-worker (scatter, no queue group): the replica whose
 * pending authorization carries the request's `state` finishes it; the others answer NOT_FOUND.
 */
export class McpAuthorizeHost {
  private subscription?: Subscription;

  constructor(
    private readonly connection: NatsConnection,
    private readonly manager: McpManager,
    private readonly oauth: RemoteMcpOAuth,
    private readonly instanceId: string,
    private readonly logger: JsonLogger,
  ) {}

  start(): void {
    this.subscription = this.connection.subscribe(MCP_AUTHORIZE_SUBJECT, {
      callback: (_error, message) => {
        void this.answer(message.data).then((envelope) => message.respond(encodeJson(envelope)));
      },
    });
  }

  stop(): void {
    this.subscription?.unsubscribe();
    this.subscription = undefined;
  }

  private async answer(data: Uint8Array): Promise<Envelope<McpInstanceReply>> {
    try {
      const request = validatePayload<McpAuthorizeRequest>(
        McpAuthorizeRequestSchema,
        decodeJsonPayload(data, MAX_REQUEST_BYTES),
        'mcp authorize',
      );
      await this.oauth.authorize(this.manager, request);
      // Never log the code or the state: either lets someone finish the exchange.
      this.logger.write('info', 'MCP server authorized', { server: request.server });
      const servers = this.oauth
        .withAuthorizationUrls(this.manager.list())
        .filter((listing) => listing.name === request.server);
      return { ok: true, data: { instanceId: this.instanceId, domain: 'orchestrator', servers } };
    } catch (error) {
      return { ok: false, error: toWireError(error) };
    }
  }
}
