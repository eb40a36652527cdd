import { Inject, Injectable, type OnApplicationShutdown } from '@nestjs/common';
import type { SkillCatalog } from '@talon/skills';
import { SKILL_CATALOG } from './skill-service.constants.js';

/** Stops watching the skill directories once the transport has drained. */
@Injectable()
export class SkillCatalogLifecycle implements OnApplicationShutdown {
  constructor(@Inject(SKILL_CATALOG) private readonly catalog: SkillCatalog) {}

  async onApplicationShutdown(): Promise<void> {
    await this.catalog.close();
  }
}
