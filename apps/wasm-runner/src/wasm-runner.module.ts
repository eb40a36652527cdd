import { Module, type DynamicModule } from '@nestjs/common';
import type { NatsConnection } from '@nats-io/transport-node';
import type { JsonLogger, ServiceConfig } from '@talon/service-runtime';

/** Wires the wasm-runner. */
@Module({})
export class WasmRunnerModule {
  static register(_config: ServiceConfig, _connection: NatsConnection, _logger: JsonLogger): DynamicModule {
    return { module: WasmRunnerModule, controllers: [], providers: [] };
  }
}
