import type { Provider } from '@nestjs/common';
import type { NatsConnection } from '@nats-io/transport-node';
import { InstalledSkillRecordSchema, SHARED_STATE_BUCKETS } from '@talon/contracts';
import { SsrfGuard, createGuardedFetch } from '@talon/safety';
import type { JsonLogger } from '@talon/service-runtime';
import { JetStreamRecordBucket } from '@talon/shared-state';
import { InstalledSkillsSync, SkillCatalog, type SkillSnapshot } from '@talon/skills';
import type { SkillServiceConfig } from './skill-service-config.js';
import type { SkillMcpServersRuntime } from './skill-mcp-servers.js';
import { SKILL_CATALOG, SKILL_MCP_SERVERS, SKILL_SHARING } from './skill-service.constants.js';

/** What the lifecycle stops at shutdown. */
export interface SkillSharingRuntime {
  sync: InstalledSkillsSync;
  records: JetStreamRecordBucket<typeof InstalledSkillRecordSchema>;
  /** The catalog the sync re-discovers after a shared change (it is built after the sync). */
  bindCatalog(catalog: SkillCatalog): void;
}

/**
 * Installed skills shared by every skill-service through the KV bucket `talon_skills`; the installed
 * folder is this replica's cache of it.
 */
export function skillSharingProvider(
  config: SkillServiceConfig,
  connection: NatsConnection,
  logger: JsonLogger,
): Provider {
  return {
    provide: SKILL_SHARING,
    useFactory: async (): Promise<SkillSharingRuntime> => {
      const records = await JetStreamRecordBucket.open({
        connection,
        bucket: SHARED_STATE_BUCKETS.skills,
        schema: InstalledSkillRecordSchema,
        onInvalid: (key, reason) => logger.write('warn', 'shared skill record skipped', { key, reason }),
      }).catch((error: Error & { code?: string }) => {
        // The service cannot start without its shared state: say why, with the code, before it exits.
        logger.write('error', error.message, { code: error.code });
        throw error;
      });
      let catalog: SkillCatalog | undefined;
      const sync = new InstalledSkillsSync({
        records,
        installedDir: config.skills.dirs.installed,
        refresh: async () => catalog?.refresh(),
        log: (level, message, fields) => logger.write(level, message, fields),
      });
      return {
        sync,
        records,
        bindCatalog: (opened) => {
          catalog = opened;
        },
      };
    },
  };
}

/**
 * The one {@link SkillCatalog} of the process: discovered before the service answers, then kept current by
 * watching the skill directories, the shared installed skills and the configured MCP servers (an `mcp.add`
 * or `mcp.remove` re-gates the skills that require that server). Install URLs pass the SSRF guard before
 * anything is fetched, and the download is pinned to the checked address.
 */
export function skillCatalogProvider(config: SkillServiceConfig, logger: JsonLogger): Provider {
  return {
    provide: SKILL_CATALOG,
    inject: [SKILL_SHARING, SKILL_MCP_SERVERS],
    useFactory: async (sharing: SkillSharingRuntime, mcp: SkillMcpServersRuntime) => {
      const guard = new SsrfGuard({ allowlist: config.ssrfAllowlist });
      const catalog = await SkillCatalog.open({
        sharing: sharing.sync,
        config: config.skills,
        mcpServers: mcp.names.names(),
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
      sharing.bindCatalog(catalog);
      await sharing.sync.start();
      logger.write('info', 'skills discovered', { ...describe(catalog.current()), dirs: config.skills.dirs });
      catalog.onChange((snapshot) => logger.write('info', 'skills changed', describe(snapshot)));
      mcp.names.onChange((servers) => {
        logger.write('info', 'MCP servers changed: skills gated again', { servers });
        catalog
          .setMcpServers(servers)
          .catch((error: unknown) =>
            logger.write('warn', 'skills not gated again', { error: (error as Error).message }),
          );
      });
      return catalog;
    },
  };
}
