import { Module, type DynamicModule } from '@nestjs/common';
import type { NatsConnection } from '@nats-io/transport-node';
import { TOOL_HOST, ToolHost, ToolHostLifecycleController, type JsonLogger } from '@talon/service-runtime';
import type { Sandbox } from '@talon/sandbox';
import { ToolRegistry } from '@talon/tool-runtime';
import { registerDevTools } from './dev-tool-registration.js';
import { stdioMcpProviders } from './mcp/stdio-mcp.providers.js';
import { wasmToolProviders } from './wasm/wasm-tools.providers.js';
import type { WasmRunnerConfig } from './wasm-runner-config.js';
import { RUNNER_CONFIG, TOOL_REGISTRY } from './wasm-runner.constants.js';

/**
 * Wires the wasm-runner: one registry fed by every container-side tool source (dev tools first, so
 * their names are protected), served by the tool host in the `wasm-runners` queue group.
 */
@Module({})
export class WasmRunnerModule {
  static register(
    config: WasmRunnerConfig,
    sandbox: Sandbox,
    connection: NatsConnection,
    logger: JsonLogger,
  ): DynamicModule {
    const registry = new ToolRegistry();
    registerDevTools(registry, config, sandbox);
    const host = new ToolHost({
      connection,
      registry,
      service: 'wasm-runner',
      domain: 'container',
      instanceId: config.instanceId,
      logger,
      concurrency: config.concurrency,
    });
    return {
      module: WasmRunnerModule,
      controllers: [ToolHostLifecycleController],
      providers: [
        { provide: RUNNER_CONFIG, useValue: config },
        { provide: TOOL_REGISTRY, useValue: registry },
        { provide: TOOL_HOST, useValue: host },
        ...stdioMcpProviders(config, sandbox, registry, connection, logger),
        ...wasmToolProviders(config, registry, connection, logger),
      ],
    };
  }
}
