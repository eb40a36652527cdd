import { Module, type DynamicModule } from '@nestjs/common';
import type { NatsConnection } from '@nats-io/transport-node';
import type { JsonLogger, ServiceConfig } from '@talon/service-runtime';

/** Wires the tool-worker. */
@Module({})
export class ToolWorkerModule {
  static register(_config: ServiceConfig, _connection: NatsConnection, _logger: JsonLogger): DynamicModule {
    return { module: ToolWorkerModule, controllers: [], providers: [] };
  }
}
