import { mkdir } from 'node:fs/promises';
import { Inject, Injectable, type OnApplicationBootstrap } from '@nestjs/common';
import {
  generateApiToken,
  hashApiToken,
  operatorTokenPath,
  readTokenFile,
  writeOperatorTokenFile,
} from '@talon/auth';
import type { JsonLogger } from '@talon/service-runtime';
import { LOGGER, ORCHESTRATOR_CONFIG } from '../config/orchestrator.constants.js';
import type { OrchestratorConfig } from '../config/orchestrator-config.js';
import { ApiAuthenticator } from './api-authenticator.js';

/**
 * Makes sure someone can get in on first start. `TALON_BOOTSTRAP_TOKEN` is registered as an operator token
 * (idempotent, so every replica may do it). Otherwise, when no operator token exists yet, one is created
 * and written to `$TALON_STATE_DIR/operator.token` (0600, created exclusively); its path is logged, never
 * the token. A revoked bootstrap token is not brought back.
 */
@Injectable()
export class OperatorTokenBootstrap implements OnApplicationBootstrap {
  constructor(
    private readonly authenticator: ApiAuthenticator,
    @Inject(ORCHESTRATOR_CONFIG) private readonly config: OrchestratorConfig,
    @Inject(LOGGER) private readonly logger: JsonLogger,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    if (!this.config.auth.enabled) {
      this.logger.write(
        'warn',
        'AUTHENTICATION IS OFF (TALON_AUTH=off): every caller is an operator. Never run this way where others can reach the API.',
      );
      return;
    }
    const store = this.authenticator.store;
    const now = new Date();
    if (this.config.auth.bootstrapToken) {
      await this.register(this.config.auth.bootstrapToken, 'bootstrap (TALON_BOOTSTRAP_TOKEN)');
      this.logger.write('info', 'operator token from TALON_BOOTSTRAP_TOKEN registered');
      return;
    }
    const path = operatorTokenPath(this.config.stateDir);
    const existing = await readTokenFile(path);
    if (existing) {
      await this.register(existing, 'bootstrap (operator.token)');
      this.logger.write('info', 'operator token', { file: path });
      return;
    }
    if (await store.hasActiveOperator(now)) return;
    const generated = generateApiToken();
    await mkdir(this.config.stateDir, { recursive: true });
    if (!(await writeOperatorTokenFile(path, generated.token))) {
      // Another orchestrator on this state directory won the race: use what it wrote.
      const written = await readTokenFile(path);
      if (written) await this.register(written, 'bootstrap (operator.token)');
    } else {
      await store.insert({
        id: generated.id,
        name: 'bootstrap (operator.token)',
        scope: 'operator',
        hash: generated.hash,
        createdAt: now,
        createdBy: 'bootstrap',
      });
    }
    this.logger.write('info', 'operator token created', { file: path });
  }

  /** Inserts the token unless one with its hash exists (revoked or not). */
  private async register(token: string, name: string): Promise<void> {
    const store = this.authenticator.store;
    if (await store.findByHash(hashApiToken(token))) return;
    const { id } = generateApiToken();
    await store.insert({
      id,
      name,
      scope: 'operator',
      hash: hashApiToken(token),
      createdAt: new Date(),
      createdBy: 'bootstrap',
    });
  }
}
