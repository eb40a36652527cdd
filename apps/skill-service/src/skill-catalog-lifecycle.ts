import { Inject, Injectable, type OnApplicationShutdown } from '@nestjs/common';
import type { SkillCatalog } from '@talon/skills';
import type { SkillSharingRuntime } from './skill-catalog.provider.js';
import type { SkillMcpServersRuntime } from './skill-mcp-servers.js';
import { SKILL_CATALOG, SKILL_MCP_SERVERS, SKILL_SHARING } from './skill-service.constants.js';

/**
 * Stops following the shared skills and MCP servers and watching the skill directories once the transport
 * has drained.
 */
@Injectable()
export class SkillCatalogLifecycle implements OnApplicationShutdown {
  constructor(
    @Inject(SKILL_CATALOG) private readonly catalog: SkillCatalog,
    @Inject(SKILL_SHARING) private readonly sharing: SkillSharingRuntime,
    @Inject(SKILL_MCP_SERVERS) private readonly mcp: SkillMcpServersRuntime,
  ) {}

  async onApplicationShutdown(): Promise<void> {
    await this.sharing.sync.stop();
    await this.sharing.records.close();
    await this.mcp.close();
    await this.catalog.close();
  }
}
