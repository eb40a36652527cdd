import type { Provider } from '@nestjs/common';
import { SsrfGuard, createGuardedFetch } from '@talon/safety';
import type { JsonLogger } from '@talon/service-runtime';
import { SkillCatalog, type SkillSnapshot } from '@talon/skills';
import type { SkillServiceConfig } from './skill-service-config.js';
import { loadConfiguredMcpServerNames } from './skill-mcp-servers.js';
import { SKILL_CATALOG } from './skill-service.constants.js';

/**
 * The one {@link SkillCatalog} of the process: discovered before the service answers, then kept current by
 * watching the skill directories. Install URLs pass the SSRF guard before anything is fetched, and the
 * download is pinned to the checked address.
 */
export function skillCatalogProvider(config: SkillServiceConfig, logger: JsonLogger): Provider {
  return {
    provide: SKILL_CATALOG,
    useFactory: async () => {
      const guard = new SsrfGuard({ allowlist: config.ssrfAllowlist });
      const catalog = await SkillCatalog.open({
        config: config.skills,
        mcpServers: await loadConfiguredMcpServerNames(),
        debounceMs: config.watchDebounceMs,
        checkUrl: async (url) => void (await guard.check(url)),
        // The download connects to the checked address: a second lookup cannot swap in another one.
        fetch: createGuardedFetch({ guard }),
      });
      const describe = (snapshot: SkillSnapshot) => ({
        generation: snapshot.generation,
        skills: snapshot.skills.length,
        rejected: snapshot.rejected.length,
        shadowed: snapshot.shadowed.length,
      });
      logger.write('info', 'skills discovered', { ...describe(catalog.current()), dirs: config.skills.dirs });
      catalog.onChange((snapshot) => logger.write('info', 'skills changed', describe(snapshot)));
      return catalog;
    },
  };
}
