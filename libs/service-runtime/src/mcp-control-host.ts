import type { NatsConnection, Subscription } from '@nats-io/transport-node';
import {
  MCP_CONTROL_SCATTER,
  McpServerRequestSchema,
  QUEUE_GROUPS,
  mcpControlSubject,
  type Envelope,
  type McpControlOperation,
  type McpInstanceReply,
  type McpServerListing,
  type McpServerRequest,
  type ServiceName,
  type ToolDomain,
} from '@talon/contracts';
import { toWireError } from '@talon/errors';
import { decodeJsonPayload, encodeJson } from './json-codec.js';
import { validatePayload } from './payload-validator.js';

/** What the control host drives: an MCP manager (start/stop by server name, list every server). */
export interface McpControlTarget {
  start(server: string): Promise<unknown>;
  stop(server: string): Promise<unknown>;
  list(): McpServerListing[];
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
