import { Module, type DynamicModule } from '@nestjs/common';
import type { NatsConnection } from '@nats-io/transport-node';
import type { JsonLogger } from '@talon/service-runtime';
import { SkillCatalogLifecycle } from './skill-catalog-lifecycle.js';
import { skillCatalogProvider, skillSharingProvider } from './skill-catalog.provider.js';
import { skillMcpServersProvider } from './skill-mcp-servers.js';
import type { SkillServiceConfig } from './skill-service-config.js';
import { SkillServiceController } from './skill-service.controller.js';

/** Wires the skill-service: the skill catalog (its sharing with the other replicas, the MCP servers it gates on) behind the `talon.skills.v1.*` handlers. */
@Module({})
export class SkillServiceModule {
  static register(config: SkillServiceConfig, connection: NatsConnection, logger: JsonLogger): DynamicModule {
    return {
      module: SkillServiceModule,
      controllers: [SkillServiceController],
      providers: [
        skillSharingProvider(config, connection, logger),
        skillMcpServersProvider(connection, logger),
        skillCatalogProvider(config, logger),
        SkillCatalogLifecycle,
      ],
    };
  }
}
