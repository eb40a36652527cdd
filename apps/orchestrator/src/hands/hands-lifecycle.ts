import { Inject, Injectable, type OnApplicationBootstrap, type OnApplicationShutdown } from '@nestjs/common';
import type { JsonLogger } from '@talon/service-runtime';
import { LOGGER } from '../config/orchestrator.constants.js';
import { HAND_RUN_SERVICE } from './hands.constants.js';
import type { HandRunService } from './hand-run-service.js';

/** How often runs past their approval deadline are denied (reads deny them too). */
const APPROVAL_SWEEP_MS = 5_000;

/** Denies hand runs whose approval deadline passed, on every orchestrator (the update is idempotent). */
@Injectable()
export class HandsLifecycle implements OnApplicationBootstrap, OnApplicationShutdown {
  private timer?: NodeJS.Timeout;

  constructor(
    @Inject(HAND_RUN_SERVICE) private readonly runs: HandRunService,
    @Inject(LOGGER) private readonly logger: JsonLogger,
  ) {}

  onApplicationBootstrap(): void {
    this.timer = setInterval(() => {
      void this.runs
        .expireApprovals()
        .catch((error) => this.logger.write('warn', 'hand approval sweep failed', { error: String(error) }));
    }, APPROVAL_SWEEP_MS);
    this.timer.unref();
  }

  onApplicationShutdown(): void {
    clearInterval(this.timer);
  }
}
