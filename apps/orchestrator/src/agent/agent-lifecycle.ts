import { Inject, Injectable, type OnApplicationBootstrap, type OnApplicationShutdown } from '@nestjs/common';
import type { ApprovalQueue } from '@talon/agent';
import type { JsonLogger } from '@talon/service-runtime';
import { APPROVAL_QUEUE, CHAT_SERVICE, LOGGER } from '../config/orchestrator.constants.js';
import type { ChatService } from './chat-service.js';

/** How often overdue approvals are expired (counted as denied). */
const EXPIRE_EVERY_MS = 1000;

/**
 * At start, resumes every turn that was waiting for approvals when the orchestrator stopped; while
 * running, expires overdue approvals. Turns are not aborted on shutdown, so what was pending stays
 * resumable by the next orchestrator.
 */
@Injectable()
export class AgentLifecycle implements OnApplicationBootstrap, OnApplicationShutdown {
  private sweeper?: NodeJS.Timeout;

  constructor(
    @Inject(APPROVAL_QUEUE) private readonly approvals: ApprovalQueue,
    @Inject(CHAT_SERVICE) private readonly chat: ChatService,
    @Inject(LOGGER) private readonly logger: JsonLogger,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    await this.approvals
      .expireDue()
      .catch((error) => this.logger.write('warn', 'expiring approvals failed', { error: String(error) }));
    const pending = await this.approvals.listPending();
    for (const sessionId of new Set(pending.map((approval) => approval.sessionId))) {
      this.logger.write('info', 'resuming a turn that waits for approval', { sessionId });
      void this.chat
        .resume(sessionId)
        .catch((error) =>
          this.logger.write('error', 'resuming a turn failed', { sessionId, error: String(error) }),
        );
    }
    this.sweeper = setInterval(() => {
      void this.approvals
        .expireDue()
        .catch((error) => this.logger.write('warn', 'expiring approvals failed', { error: String(error) }));
    }, EXPIRE_EVERY_MS);
    this.sweeper.unref();
  }

  onApplicationShutdown(): void {
    clearInterval(this.sweeper);
  }
}
