import type { NatsConnection } from '@nats-io/transport-node';
import {
  ERROR_CODES,
  MCP_CONTROL_SCATTER,
  TOOL_DOMAINS,
  mcpControlSubject,
  type Envelope,
  type McpControlOperation,
  type McpInstanceReply,
  type McpQueryOperation,
  type McpServerView,
  type ToolDomain,
} from '@talon/contracts';
import { fromWireError, TalonError } from '@talon/errors';
import { encodeJson, NatsRequester, traceHeaders } from '@talon/service-runtime';
import { McpServerNotFoundError } from './mcp-server-not-found-error.js';
import { mergeMcpInstanceReplies } from './mcp-server-views.js';

/** Options of {@link McpControlClient}. */
export interface McpControlClientOptions {
  /** How long `list` waits for instances. Default 1000 ms. */
  listTimeoutMs?: number;
  /** How long `start`/`stop` wait (a start connects and lists tools). Default 30000 ms. */
  controlTimeoutMs?: number;
  /** After the first scatter reply, how long to wait for more. Default 150 ms. */
  stallMs?: number;
}

/**
 * The orchestrator's side of MCP control. It does not need to know where a server lives: each operation
 * goes to both domains (one wasm-runner through its queue group; every tool-worker by scatter) and the
 * replies of the instances that know the server are merged.
 */
export class McpControlClient {
  private readonly requester: NatsRequester;
  private readonly listTimeoutMs: number;
  private readonly controlTimeoutMs: number;
  private readonly stallMs: number;

  constructor(
    private readonly connection: NatsConnection,
    options: McpControlClientOptions = {},
  ) {
    this.requester = new NatsRequester(connection);
    this.listTimeoutMs = options.listTimeoutMs ?? 1_000;
    this.controlTimeoutMs = options.controlTimeoutMs ?? 30_000;
    this.stallMs = options.stallMs ?? 150;
  }

  /** Every configured server of every domain. Domains with no running instance are simply absent. */
  async list(): Promise<McpServerView[]> {
    const replies = await Promise.all(
      TOOL_DOMAINS.map((domain) => this.ask(domain, 'list', {}, this.listTimeoutMs)),
    );
    return mergeMcpInstanceReplies(
      replies.flat().filter((reply): reply is McpInstanceReply => !(reply instanceof Error)),
    );
  }

  start(server: string): Promise<McpServerView> {
    return this.control('start', server);
  }

  stop(server: string): Promise<McpServerView> {
    return this.control('stop', server);
  }

  private async control(operation: 'start' | 'stop', server: string): Promise<McpServerView> {
    const replies = (
      await Promise.all(
        TOOL_DOMAINS.map((domain) => this.ask(domain, operation, { server }, this.controlTimeoutMs)),
      )
    ).flat();
    const view = mergeMcpInstanceReplies(
      replies.filter((reply): reply is McpInstanceReply => !(reply instanceof Error)),
    )[0];
    if (view) return view;
    const errors = replies.filter((reply): reply is TalonError => TalonError.isInstance(reply));
    // NOT_FOUND from a domain only says the server lives elsewhere; any other error is the real answer.
    const failure = errors.find(
      (error) => error.code !== ERROR_CODES.NOT_FOUND && error.code !== ERROR_CODES.NO_RESPONDERS,
    );
    if (failure) throw failure;
    throw new McpServerNotFoundError(server);
  }

  /**
   * A read query (`resources.list|read`, `prompts.list|get`) answered by whichever domain runs the server: the
   * first successful reply wins; NOT_FOUND from one domain only says the server lives in the other.
   */
  async query<T>(
    operation: McpQueryOperation,
    payload: { server: string; [key: string]: unknown },
  ): Promise<T> {
    const replies = (
      await Promise.all(
        TOOL_DOMAINS.map((domain) => this.ask(domain, operation, payload, this.controlTimeoutMs)),
      )
    ).flat();
    const answer = replies.find((reply) => !(reply instanceof Error));
    if (answer !== undefined) return answer as T;
    const failure = replies.find(
      (reply): reply is TalonError =>
        TalonError.isInstance(reply) &&
        reply.code !== ERROR_CODES.NOT_FOUND &&
        reply.code !== ERROR_CODES.NO_RESPONDERS,
    );
    if (failure) throw failure;
    const notFound = replies.find(
      (reply): reply is TalonError =>
        TalonError.isInstance(reply) &&
        reply.code === ERROR_CODES.NOT_FOUND &&
        (reply.details as { capability?: unknown } | undefined)?.capability !== undefined,
    );
    if (notFound) throw notFound;
    throw new McpServerNotFoundError(payload.server);
  }

  /** One domain's replies: one from a queue group, or every instance's from a scatter. Errors are returned, not thrown. */
  private async ask(
    domain: ToolDomain,
    operation: McpControlOperation,
    payload: unknown,
    timeoutMs: number,
  ): Promise<Array<McpInstanceReply | Error>> {
    const subject = mcpControlSubject(domain, operation);
    if (!MCP_CONTROL_SCATTER[domain]) {
      try {
        return [await this.requester.request<McpInstanceReply>(subject, payload, { timeoutMs })];
      } catch (error) {
        return [error as Error];
      }
    }
    const results: Array<McpInstanceReply | Error> = [];
    try {
      const headers = traceHeaders();
      const replies = await this.connection.requestMany(subject, encodeJson(payload), {
        strategy: 'stall',
        stall: this.stallMs,
        maxWait: timeoutMs,
        ...(headers ? { headers } : {}),
      });
      for await (const message of replies) {
        const envelope = message.json<Envelope<McpInstanceReply>>();
        results.push(envelope.ok ? envelope.data : fromWireError(envelope.error));
      }
    } catch {
      // No tool-worker answered: this domain has nothing to say.
    }
    return results;
  }
}
