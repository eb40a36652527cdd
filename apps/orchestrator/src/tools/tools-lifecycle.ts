import {
  Inject,
  Injectable,
  type BeforeApplicationShutdown,
  type OnApplicationBootstrap,
  type OnApplicationShutdown,
} from '@nestjs/common';
import type { ToolCallRequester } from '@talon/service-runtime';
import { AUDIT_LOG, CATALOG_SYNC, TOOL_CALL_REQUESTER } from '../config/orchestrator.constants.js';
import type { AuditLog } from '../audit/audit-log.js';
import type { CatalogSync } from './catalog-sync.js';

/**
 * Starts the audit drain and catalog sync with the app; when it stops, writes what the audit log holds
 * (before any shutdown hook closes the database: answered calls' records may still wait in the journal),
 * then ends the catalog sync and the failover probes.
 */
@Injectable()
export class ToolsLifecycle
  implements OnApplicationBootstrap, BeforeApplicationShutdown, OnApplicationShutdown
{
  constructor(
    @Inject(CATALOG_SYNC) private readonly sync: CatalogSync,
    @Inject(AUDIT_LOG) private readonly audit: AuditLog,
    @Inject(TOOL_CALL_REQUESTER) private readonly toolCalls: ToolCallRequester,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    await this.audit.start();
    await this.sync.start();
  }

  async beforeApplicationShutdown(): Promise<void> {
    await this.audit.stop();
  }

  onApplicationShutdown(): void {
    this.sync.stop();
    this.toolCalls.stop();
  }
}
