import { Module, type DynamicModule } from '@nestjs/common';
import type { JsonLogger } from '@talon/service-runtime';
import { SkillCatalogLifecycle } from './skill-catalog-lifecycle.js';
import { skillCatalogProvider } from './skill-catalog.provider.js';
import type { SkillServiceConfig } from './skill-service-config.js';
import { SkillServiceController } from './skill-service.controller.js';

/** Wires the skill-service: the skill catalog behind the `talon.skills.v1.*` handlers. */
@Module({})
export class SkillServiceModule {
  static register(config: SkillServiceConfig, logger: JsonLogger): DynamicModule {
    return {
      module: SkillServiceModule,
      controllers: [SkillServiceController],
      providers: [skillCatalogProvider(config, logger), SkillCatalogLifecycle],
    };
  }
}
