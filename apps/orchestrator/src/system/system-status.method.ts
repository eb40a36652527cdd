import { Inject, Injectable, type OnModuleInit } from '@nestjs/common';
import type { NatsConnection } from '@nats-io/transport-node';
import { SystemStatusRequestSchema, type SystemStatus, type SystemStatusRequest } from '@talon/contracts';
import { collectSystemStatus } from '@talon/service-runtime';
import { ApiRouter } from '../api/api-router.js';
import type { ApiMethod } from '../api/api-method.js';
import { NATS_CONNECTION, ORCHESTRATOR_CONFIG } from '../config/orchestrator.constants.js';
import type { OrchestratorConfig } from '../config/orchestrator-config.js';

/** `system.status`: every service's instances, version and latency, bounded by a timeout. */
@Injectable()
export class SystemStatusMethod implements ApiMethod<SystemStatusRequest, SystemStatus>, OnModuleInit {
  readonly name = 'system.status';
  readonly description = 'Asks every service over NATS and reports its instances, version and latency.';
  readonly scope = 'read' as const;
  readonly request = SystemStatusRequestSchema;

  constructor(
    private readonly router: ApiRouter,
    @Inject(NATS_CONNECTION) private readonly connection: NatsConnection,
    @Inject(ORCHESTRATOR_CONFIG) private readonly config: OrchestratorConfig,
  ) {}

  onModuleInit(): void {
    this.router.register(this);
  }

  handle(request: SystemStatusRequest): Promise<SystemStatus> {
    return collectSystemStatus(this.connection, request.timeoutMs ?? this.config.statusTimeoutMs);
  }
}
