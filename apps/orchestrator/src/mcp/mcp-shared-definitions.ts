import { Inject, Injectable, type BeforeApplicationShutdown } from '@nestjs/common';
import type { NatsConnection } from '@nats-io/transport-node';
import {
  effectiveMcpDefinitions,
  openSharedMcpBuckets,
  SharedMcpDefinitionWriter,
  standardConfigVariables,
  type McpServerDefinition,
  type SharedMcpBuckets,
} from '@talon/mcp';
import type { JsonLogger } from '@talon/service-runtime';
import { LOGGER, NATS_CONNECTION } from '../config/orchestrator.constants.js';
import { loadDeploymentMcpFileDefinitions } from './mcp-remote-definitions.js';

/** What the orchestrator holds of the shared MCP definitions once they are open. */
interface OpenDefinitions {
  buckets: SharedMcpBuckets;
  writer: SharedMcpDefinitionWriter;
  files: McpServerDefinition[];
}

/**
 * The MCP server definitions the orchestrator writes for `mcp.add` / `mcp.remove` (KV `talon_mcp_servers`,
 * followed by every tool-worker and wasm-runner) and reads for credential scopes. Opened on first use, so
 * the methods and the credential responder share one watch.
 */
@Injectable()
export class McpSharedDefinitions implements BeforeApplicationShutdown {
  private opening?: Promise<OpenDefinitions>;

  constructor(
    @Inject(NATS_CONNECTION) private readonly connection: NatsConnection,
    @Inject(LOGGER) private readonly logger: JsonLogger,
  ) {}

  /** The writer behind `mcp.add` and `mcp.remove`. */
  async writer(): Promise<SharedMcpDefinitionWriter> {
    return (await this.open()).writer;
  }

  /** The remote servers of the files plus the shared ones (their credentials are served to tool-workers). */
  async remoteDefinitions(): Promise<McpServerDefinition[]> {
    const { buckets, files } = await this.open();
    return effectiveMcpDefinitions({
      files: files.filter((definition) => definition.transport.type !== 'stdio'),
      shared: buckets.definitions.entries(),
      // Only names and auth are read here; the paths are the workers' business.
      variables: standardConfigVariables({ root: '/', workspace: '/', dataDir: '/' }),
      transports: ['streamable-http', 'sse'],
    });
  }

  /** Tells `listener` after each change of the shared definitions; returns the way to stop. */
  async onChange(listener: () => void): Promise<() => void> {
    return (await this.open()).buckets.definitions.onChange(listener);
  }

  async beforeApplicationShutdown(): Promise<void> {
    const opened = await this.opening?.catch(() => undefined);
    await opened?.buckets.close();
  }

  private open(): Promise<OpenDefinitions> {
    this.opening ??= (async () => {
      const files = await loadDeploymentMcpFileDefinitions().catch((error: unknown) => {
        this.logger.write('error', 'MCP server files unreadable: mcp.add cannot see their names', {
          error: (error as Error).message,
        });
        return [];
      });
      const buckets = await openSharedMcpBuckets(this.connection, {
        snapshots: true,
        log: (level, message, fields) => this.logger.write(level, message, fields),
      });
      const names = new Set(files.map((definition) => definition.name));
      const writer = new SharedMcpDefinitionWriter(buckets.definitions, () => names, buckets.snapshots);
      return { buckets, writer, files };
    })();
    // A failed open (NATS without JetStream, a mismatched bucket) is tried again on the next use.
    this.opening.catch(() => (this.opening = undefined));
    return this.opening;
  }
}
