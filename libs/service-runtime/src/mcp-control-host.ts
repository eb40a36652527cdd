import type { NatsConnection, Subscription } from '@nats-io/transport-node';
import {
  MCP_CONTROL_SCATTER,
  MCP_QUERY_OPERATIONS,
  McpListPageRequestSchema,
  McpPromptGetRequestSchema,
  McpResourceReadRequestSchema,
  McpServerRequestSchema,
  QUEUE_GROUPS,
  mcpControlSubject,
  type Envelope,
  type McpControlOperation,
  type McpInstanceReply,
  type McpListPageRequest,
  type McpPromptGetRequest,
  type McpQueryOperation,
  type McpResourceReadRequest,
  type McpServerListing,
  type McpServerRequest,
  type ServiceName,
  type ToolDomain,
} from '@talon/contracts';
import { toWireError } from '@talon/errors';
import { decodeJsonPayload, encodeJson } from './json-codec.js';
import { McpQueryUnknownServerError } from './mcp-query-unknown-server-error.js';
import { validatePayload } from './payload-validator.js';

/** What the control host drives: an MCP manager (start/stop by server name, list every server, read queries). */
export interface McpControlTarget {
  start(server: string): Promise<unknown>;
  stop(server: string): Promise<unknown>;
  list(): McpServerListing[];
  listResources?(server: string, cursor?: string): Promise<unknown>;
  readResource?(server: string, uri: string): Promise<unknown>;
  listPrompts?(server: string, cursor?: string): Promise<unknown>;
  getPrompt?(server: string, name: string, args?: Record<string, string>): Promise<unknown>;
}

/** Options of {@link McpControlHost}. */
export interface McpControlHostOptions {
  connection: NatsConnection;
  target: McpControlTarget;
  service: ServiceName;
  domain: ToolDomain;
  instanceId: string;
  /** Largest request accepted. Default 64 KiB (requests only name a server). */
  maxPayloadBytes?: number;
}

const DEFAULT_MAX_CONTROL_PAYLOAD = 64 * 1024;

/**
 * Answers `talon.mcp.v1.<domain>.{start,stop,list}` for one worker. In a scatter domain (tool-workers)
 * every instance subscribes without a queue group, so each starts or stops its own connection and the
 * orchestrator merges the replies; elsewhere the service's queue group picks one instance.
 */
export class McpControlHost {
  private readonly subscriptions: Subscription[] = [];

  constructor(private readonly options: McpControlHostOptions) {}

  start(): void {
    const { connection, domain, service } = this.options;
    const queue = MCP_CONTROL_SCATTER[domain] ? undefined : QUEUE_GROUPS[service];
    for (const operation of MCP_QUERY_OPERATIONS) {
      this.subscriptions.push(
        connection.subscribe(mcpControlSubject(domain, operation), {
          ...(queue ? { queue } : {}),
          callback: (_error, message) => {
            void this.query(operation, message.data).then((envelope) =>
              message.respond(encodeJson(envelope)),
            );
          },
        }),
      );
    }
    for (const operation of ['start', 'stop', 'list'] as const) {
      this.subscriptions.push(
        connection.subscribe(mcpControlSubject(domain, operation), {
          ...(queue ? { queue } : {}),
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

  /**
   * A read query (`resources.list|read`, `prompts.list|get`) for a server this instance runs; a server it does
   * not know is answered at once with NOT_FOUND, so a scatter ends quickly (every tool-worker runs the same
   * remote servers: either all of them know a server or none does).
   */
  private async query(operation: McpQueryOperation, data: Uint8Array): Promise<Envelope<unknown>> {
    const { target } = this.options;
    try {
      const payload = decodeJsonPayload(data, this.options.maxPayloadBytes ?? DEFAULT_MAX_CONTROL_PAYLOAD);
      const label = `mcp ${operation}`;
      let run: () => Promise<unknown>;
      let server: string;
      if (operation === 'resources.list' || operation === 'prompts.list') {
        const request = validatePayload<McpListPageRequest>(McpListPageRequestSchema, payload, label);
        server = request.server;
        run = () =>
          operation === 'resources.list'
            ? target.listResources!(request.server, request.cursor)
            : target.listPrompts!(request.server, request.cursor);
      } else if (operation === 'resources.read') {
        const request = validatePayload<McpResourceReadRequest>(McpResourceReadRequestSchema, payload, label);
        server = request.server;
        run = () => target.readResource!(request.server, request.uri);
      } else {
        const request = validatePayload<McpPromptGetRequest>(McpPromptGetRequestSchema, payload, label);
        server = request.server;
        run = () => target.getPrompt!(request.server, request.name, request.arguments);
      }
      if (!target.list().some((listing) => listing.name === server))
        throw new McpQueryUnknownServerError(server);
      return { ok: true, data: await run() };
    } catch (error) {
      return { ok: false, error: toWireError(error) };
    }
  }

  private async answer(
    operation: McpControlOperation,
    data: Uint8Array,
  ): Promise<Envelope<McpInstanceReply>> {
    const { target, instanceId, domain } = this.options;
    try {
      if (operation === 'list') return { ok: true, data: { instanceId, domain, servers: target.list() } };
      const payload = decodeJsonPayload(data, this.options.maxPayloadBytes ?? DEFAULT_MAX_CONTROL_PAYLOAD);
      const { server } = validatePayload<McpServerRequest>(
        McpServerRequestSchema,
        payload,
        `mcp ${operation}`,
      );
      await (operation === 'start' ? target.start(server) : target.stop(server));
      const servers = target.list().filter((listing) => listing.name === server);
      return { ok: true, data: { instanceId, domain, servers } };
    } catch (error) {
      return { ok: false, error: toWireError(error) };
    }
  }
}
