import type { NatsConnection } from '@nats-io/transport-node';
import {
  ERROR_CODES,
  MCP_AUTHORIZE_SUBJECT,
  type Envelope,
  type McpAuthorizeRequest,
  type McpInstanceReply,
  type McpServerView,
} from '@talon/contracts';
import { fromWireError, type TalonError } from '@talon/errors';
import { encodeJson } from '@talon/service-runtime';
import { McpAuthorizationNotPendingError } from './mcp-authorization-not-pending-error.js';
import type { McpControlClient } from './mcp-control-client.js';

/** Options of {@link McpAuthorizationClient}. */
export interface McpAuthorizationClientOptions {
  /** How long to wait for tool-workers (one of them exchanges the code for tokens). Default 30000 ms. */
  timeoutMs?: number;
  /**
   * After a reply, how long to wait for more. Default 2000 ms: each replica has its own pending URL, so the
   * others answer "state does not match" at once while the right one is still exchanging the code.
   */
  stallMs?: number;
}

/**
 * `mcp.authorize`: scatters the code and state to every tool-worker; the one whose pending authorization
 * URL carries that state exchanges the code (PKCE) and stores the tokens. Then the server is started on
 * every replica, and the others connect with the stored tokens.
 */
export class McpAuthorizationClient {
  private readonly timeoutMs: number;
  private readonly stallMs: number;

  constructor(
    private readonly connection: NatsConnection,
    private readonly control: McpControlClient,
    options: McpAuthorizationClientOptions = {},
  ) {
    this.timeoutMs = options.timeoutMs ?? 30_000;
    this.stallMs = options.stallMs ?? 2_000;
  }

  async authorize(request: McpAuthorizeRequest): Promise<McpServerView> {
    const replies: Envelope<McpInstanceReply>[] = [];
    try {
      const messages = await this.connection.requestMany(MCP_AUTHORIZE_SUBJECT, encodeJson(request), {
        strategy: 'stall',
        stall: this.stallMs,
        maxWait: this.timeoutMs,
      });
      for await (const message of messages) {
        const reply = message.json<Envelope<McpInstanceReply>>();
        replies.push(reply);
        // The replica that held this state exchanged the code: no need to hear the others out.
        if (reply.ok) break;
      }
    } catch {
      // No tool-worker answered: reported below as nothing pending.
    }
    if (replies.some((reply) => reply.ok)) return this.control.start(request.server);
    const errors: TalonError[] = replies.flatMap((reply) => (reply.ok ? [] : [fromWireError(reply.error)]));
    // NOT_FOUND from a replica only says it has nothing pending; a refused state or failed exchange is the answer.
    const failure = errors.find((error) => error.code !== ERROR_CODES.NOT_FOUND);
    if (failure) throw failure;
    throw new McpAuthorizationNotPendingError(request.server);
  }
}
