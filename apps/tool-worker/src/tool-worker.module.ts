import { Module, type DynamicModule } from '@nestjs/common';
import type { NatsConnection } from '@nats-io/transport-node';
import { TOOL_HOST, ToolHost, ToolHostLifecycleController, type JsonLogger } from '@talon/service-runtime';
import { createBuiltinToolRegistry } from './builtin-tool-registry.js';
import { remoteMcpProviders } from './mcp/remote-mcp.providers.js';
import type { ToolWorkerConfig } from './tool-worker-config.js';

/** Wires the tool-worker: built-in tools behind the tool host. */
@Module({})
export class ToolWorkerModule {
  static register(config: ToolWorkerConfig, connection: NatsConnection, logger: JsonLogger): DynamicModule {
    const registry = createBuiltinToolRegistry(config);
    const host = new ToolHost({
      connection,
      registry,
      service: 'tool-worker',
      domain: 'orchestrator',
      instanceId: config.instanceId,
      logger,
      concurrency: config.concurrency,
    });
    return {
      module: ToolWorkerModule,
      controllers: [ToolHostLifecycleController],
      providers: [
        { provide: TOOL_HOST, useValue: host },
        ...remoteMcpProviders(config, registry, connection, logger),
      ],
    };
  }
}
