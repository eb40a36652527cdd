import type { Provider } from '@nestjs/common';
import type { NatsConnection } from '@nats-io/transport-node';
import type { Database } from '@talon/persistence';
import { createOutputSafety } from '@talon/safety';
import {
  DEFAULT_ANNOUNCE_TTL_MS,
  NatsRequester,
  ToolCallRequester,
  type JsonLogger,
} from '@talon/service-runtime';
import { CatalogWarmUp, ToolCatalog, type Tool } from '@talon/tool-runtime';
import { AuditLog } from '../audit/audit-log.js';
import { JetStreamAuditOutbox } from '../audit/jetstream-audit-outbox.js';
import { JournalAuditOutbox } from '../audit/journal-audit-outbox.js';
import { ArtifactStore } from '../artifacts/artifact-store.js';
import {
  ARTIFACT_STORE,
  AUDIT_LOG,
  CATALOG_SYNC,
  CATALOG_WARM_UP,
  TOOL_CALL_REQUESTER,
  TOOL_CATALOG,
  TOOL_DISPATCHER,
} from '../config/orchestrator.constants.js';
import { createMemoryTools } from '../memory/memory-tools.js';
import { SkillServiceClient } from '../skills/skill-service-client.js';
import { createSkillTools } from '../skills/skill-tools.js';
import { SKILL_SERVICE_CLIENT } from '../skills/skills.constants.js';
import type { OrchestratorConfig } from '../config/orchestrator-config.js';
import { CatalogSync } from './catalog-sync.js';
import { createToolRateLimiter } from './shared-rate-limiter.js';
import { createToolInfoTool } from './tool-info.tool.js';
import { ToolDispatcher } from './tool-dispatcher.js';

/** The catalog, its sync with the workers, the audit log and the dispatcher, built once. */
export function toolProviders(
  connection: NatsConnection,
  logger: JsonLogger,
  database: Database,
  rateLimits: OrchestratorConfig['rateLimits'],
  auditOutbox: OrchestratorConfig['auditOutbox'],
): Provider[] {
  const catalog = new ToolCatalog();
  for (const tool of createMemoryTools(database.prisma)) catalog.registerLocal(tool);
  const skills = new SkillServiceClient(new NatsRequester(connection));
  for (const tool of createSkillTools(skills)) catalog.registerLocal(tool);
  const audit = new AuditLog(database, {
    ...(auditOutbox.mode === 'jetstream' ? { outbox: new JetStreamAuditOutbox(connection, logger) } : {}),
    ...(auditOutbox.mode === 'journal' ? { outbox: new JournalAuditOutbox(auditOutbox.dir, logger) } : {}),
    onWriteError: (error, attempt, rows) =>
      logger.write('error', 'audit write failed; retrying', { error: String(error), attempt, rows }),
    onOutboxError: (error) =>
      logger.write('warn', 'the audit outbox refused a record; it was written directly', {
        error: String(error),
      }),
  });
  const artifacts = new ArtifactStore(database.prisma);
  const warmUp = new CatalogWarmUp(DEFAULT_ANNOUNCE_TTL_MS);
  const toolCalls = new ToolCallRequester(connection, { logger });
  const dispatcher = new ToolDispatcher({
    catalog,
    requester: new NatsRequester(connection),
    toolCalls,
    warmUp,
    safety: createOutputSafety(),
    audit,
    storeMedia: (media, sessionId) => artifacts.store(media, sessionId),
    rateLimiter: createToolRateLimiter(database),
    rateLimits,
    log: (level, message, fields) => logger.write(level, message, fields),
  });
  // A built tool's source and versions live on the wasm-runner: tool_info asks its extension_info.
  const describeBuilt = async (name: string) =>
    (
      (await dispatcher.call({ tool: 'extension_info', params: { name }, actor: 'tool_info' })).output as {
        built?: unknown;
      }
    ).built;
  catalog.registerLocal(createToolInfoTool(catalog, describeBuilt) as unknown as Tool);
  return [
    { provide: TOOL_CATALOG, useValue: catalog },
    { provide: CATALOG_SYNC, useValue: new CatalogSync(connection, catalog, logger, warmUp) },
    { provide: CATALOG_WARM_UP, useValue: warmUp },
    { provide: TOOL_CALL_REQUESTER, useValue: toolCalls },
    { provide: AUDIT_LOG, useValue: audit },
    { provide: ARTIFACT_STORE, useValue: artifacts },
    { provide: TOOL_DISPATCHER, useValue: dispatcher },
    { provide: SKILL_SERVICE_CLIENT, useValue: skills },
  ];
}
