import { Inject, Injectable, type OnApplicationBootstrap, type OnApplicationShutdown } from '@nestjs/common';
import { AUDIT_LOG, CATALOG_SYNC } from '../config/orchestrator.constants.js';
import type { AuditLog } from '../audit/audit-log.js';
import type { CatalogSync } from './catalog-sync.js';

/** Starts catalog sync with the app and flushes the audit log when it stops. */
@Injectable()
export class ToolsLifecycle implements OnApplicationBootstrap, OnApplicationShutdown {
  constructor(
    @Inject(CATALOG_SYNC) private readonly sync: CatalogSync,
    @Inject(AUDIT_LOG) private readonly audit: AuditLog,
  ) {}

  onApplicationBootstrap(): Promise<void> {
    return this.sync.start();
  }

  async onApplicationShutdown(): Promise<void> {
    this.sync.stop();
    await this.audit.flush();
  }
}
