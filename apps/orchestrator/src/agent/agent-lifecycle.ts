import { Inject, Injectable, type OnApplicationBootstrap, type OnApplicationShutdown } from '@nestjs/common';
import type { ApprovalQueue, TurnLeaseKeeper, TurnLeaseStore } from '@talon/agent';
import type { JsonLogger } from '@talon/service-runtime';
import {
  APPROVAL_QUEUE,
  CHAT_SERVICE,
  DATABASE,
  LOGGER,
  TURN_LEASES,
} from '../config/orchestrator.constants.js';
import type { Database } from '@talon/persistence';
import type { ChatService } from './chat-service.js';
import { PrismaTurnLeaseStore } from './prisma-turn-lease-store.js';

/** How often overdue approvals are expired (counted as denied). */
const EXPIRE_EVERY_MS = 1000;
/** Expired turns taken over per sweep. */
const SWEEP_BATCH = 20;

/**
 * Keeps every turn owned. At start, resumes the turns that wait for approvals and whose owner is gone
 * (their lease expired, or they predate leases); while running, sweeps for turns whose lease expired
 * (their orchestrator died) and takes them over, and expires overdue approvals. At shutdown, lets this
 * orchestrator's leases expire at once, so another one continues its waiting turns without waiting a
 * whole lease.
 */
@Injectable()
export class AgentLifecycle implements OnApplicationBootstrap, OnApplicationShutdown {
  private sweeper?: NodeJS.Timeout;
  private takeovers?: NodeJS.Timeout;
  private sweeping = false;
  private readonly store: TurnLeaseStore;

  constructor(
    @Inject(APPROVAL_QUEUE) private readonly approvals: ApprovalQueue,
    @Inject(CHAT_SERVICE) private readonly chat: ChatService,
    @Inject(TURN_LEASES) private readonly leases: TurnLeaseKeeper,
    @Inject(DATABASE) database: Database,
    @Inject(LOGGER) private readonly logger: JsonLogger,
  ) {
    this.store = new PrismaTurnLeaseStore(database);
  }

  async onApplicationBootstrap(): Promise<void> {
    await this.approvals
      .expireDue()
      .catch((error) => this.logger.write('warn', 'expiring approvals failed', { error: String(error) }));
    const pending = await this.approvals.listPending();
    const expired = await this.store.listExpired(SWEEP_BATCH);
    // A session whose turn another orchestrator holds is refused by its lease inside `resume`.
    for (const sessionId of new Set([...pending.map((approval) => approval.sessionId), ...expired]))
      this.resume(sessionId, 'resuming a turn whose owner is gone');
    this.sweeper = setInterval(() => {
      void this.approvals
        .expireDue()
        .catch((error) => this.logger.write('warn', 'expiring approvals failed', { error: String(error) }));
    }, EXPIRE_EVERY_MS);
    this.sweeper.unref();
    this.takeovers = setInterval(() => void this.sweep(), this.leases.schedule.sweepEveryMs);
    this.takeovers.unref();
  }

  async onApplicationShutdown(): Promise<void> {
    clearInterval(this.sweeper);
    clearInterval(this.takeovers);
    await this.leases
      .handOver()
      .catch((error) =>
        this.logger.write('warn', 'handing turn leases over failed', { error: String(error) }),
      );
  }

  /** Takes over the turns whose lease expired. */
  private async sweep(): Promise<void> {
    if (this.sweeping) return;
    this.sweeping = true;
    try {
      for (const sessionId of await this.store.listExpired(SWEEP_BATCH))
        this.resume(sessionId, 'taking over a turn whose lease expired');
    } catch (error) {
      this.logger.write('warn', 'looking for expired turn leases failed', { error: String(error) });
    } finally {
      this.sweeping = false;
    }
  }

  private resume(sessionId: string, message: string): void {
    void this.chat.resume(sessionId).then(
      (result) => {
        if (result)
          this.logger.write('info', message, { sessionId, turnId: result.turnId, reason: result.reason });
      },
      (error) => this.logger.write('error', 'resuming a turn failed', { sessionId, error: String(error) }),
    );
  }
}
