import { Inject, Injectable, type OnModuleInit } from '@nestjs/common';
import {
  EmptyRequestSchema,
  SecretsDeleteRequestSchema,
  SecretsSetRequestSchema,
  type SecretsDeleteRequest,
  type SecretsSetRequest,
} from '@talon/contracts';
import { ApiRouter } from '../api/api-router.js';
import type { ApiCallContext } from '../api/api-method.js';
import type { AuditLog } from '../audit/audit-log.js';
import { AUDIT_LOG, SECRET_STORE } from '../config/orchestrator.constants.js';
import type { SecretStore } from './secret-store.js';

/** `secrets.set` (API and CLI only), `secrets.list`, `secrets.delete`. Values never come back out. */
@Injectable()
export class SecretsApi implements OnModuleInit {
  constructor(
    private readonly router: ApiRouter,
    @Inject(SECRET_STORE) private readonly secrets: SecretStore,
    @Inject(AUDIT_LOG) private readonly audit: AuditLog,
  ) {}

  onModuleInit(): void {
    this.router.register({
      name: 'secrets.set',
      scope: 'operator',
      description:
        'Stores a secret encrypted at rest, with the host patterns it may be sent to. Not available to models.',
      request: SecretsSetRequestSchema,
      handle: async (request: SecretsSetRequest, context: ApiCallContext) => {
        const listing = await this.secrets.set(request.name, request.value, {
          hostPatterns: request.hostPatterns,
          location: request.location,
        });
        await this.audit.append({
          kind: 'secret.set',
          actor: `operator:${context.surface}`,
          outcome: 'ok',
          data: { name: request.name, hostPatterns: listing.hostPatterns },
        });
        return listing;
      },
    });
    this.router.register({
      name: 'secrets.list',
      scope: 'operator',
      description: 'Secret names and where they may be sent; never values.',
      request: EmptyRequestSchema,
      handle: async () => ({ secrets: await this.secrets.list() }),
    });
    this.router.register({
      name: 'secrets.delete',
      scope: 'operator',
      description: 'Deletes a secret.',
      request: SecretsDeleteRequestSchema,
      handle: async (request: SecretsDeleteRequest, context: ApiCallContext) => {
        const deleted = await this.secrets.delete(request.name);
        await this.audit.append({
          kind: 'secret.delete',
          actor: `operator:${context.surface}`,
          outcome: deleted ? 'ok' : 'not_found',
          data: { name: request.name },
        });
        return { name: request.name, deleted };
      },
    });
  }
}
