import { Inject, Injectable, type OnApplicationBootstrap, type OnApplicationShutdown } from '@nestjs/common';
import type { NatsConnection, Subscription } from '@nats-io/transport-node';
import { SUBJECTS } from '@talon/contracts';
import type { JsonLogger } from '@talon/service-runtime';
import type { ChatService } from '../agent/chat-service.js';
import { CHAT_SERVICE, LOGGER, NATS_CONNECTION } from '../config/orchestrator.constants.js';
import {
  HAND_ROUTINE_SYNC,
  JOB_RUNNER,
  ROUTINE_SERVICE,
  SCHEDULER,
  SKILL_ROUTINE_SYNC,
} from './autonomy.constants.js';
import type { OwnedRoutineSync } from './owned-routine-sync.js';
import type { JobRunner } from './job-runner.js';
import type { RoutineService } from './routine-service.js';
import type { Scheduler } from './scheduler.js';

/**
 * Starts the scheduler and the job runner once the app is up, listens for wake-ups and cancels from
 * other orchestrators (`talon.jobs.v1.wake`, every instance), feeds chat messages to event routines
 * and keeps skill and hand triggers synced into routines. On shutdown it stops ticking and claiming;
 * jobs in flight are left to their leases.
 */
@Injectable()
export class AutonomyLifecycle implements OnApplicationBootstrap, OnApplicationShutdown {
  private subscription?: Subscription;

  constructor(
    @Inject(SCHEDULER) private readonly scheduler: Scheduler,
    @Inject(JOB_RUNNER) private readonly runner: JobRunner,
    @Inject(ROUTINE_SERVICE) private readonly routines: RoutineService,
    @Inject(SKILL_ROUTINE_SYNC) private readonly skillRoutines: OwnedRoutineSync,
    @Inject(HAND_ROUTINE_SYNC) private readonly handRoutines: OwnedRoutineSync,
    @Inject(CHAT_SERVICE) private readonly chat: ChatService,
    @Inject(NATS_CONNECTION) private readonly connection: NatsConnection,
    @Inject(LOGGER) private readonly logger: JsonLogger,
  ) {}

  onApplicationBootstrap(): void {
    this.subscription = this.connection.subscribe(SUBJECTS.jobsWake, {
      callback: (_error, message) => {
        try {
          const body = message.json<{ wake?: boolean; cancel?: string; by?: string }>();
          if (body.cancel) this.runner.cancelLocal(body.cancel, body.by ?? 'a person');
          if (body.wake) this.runner.wake();
        } catch {
          // Not ours to answer: a malformed nudge is dropped.
        }
      },
    });
    this.chat.observeMessages((sessionId, message) => {
      void this.routines
        .onChatMessage(sessionId, message)
        .catch((error) => this.logger.write('warn', 'event routines failed', { error: String(error) }));
    });
    this.scheduler.start();
    this.runner.start();
    this.skillRoutines.start();
    this.handRoutines.start();
  }

  async onApplicationShutdown(): Promise<void> {
    this.runner.stop();
    this.skillRoutines.stop();
    this.handRoutines.stop();
    this.subscription?.unsubscribe();
    await this.scheduler.stop();
  }
}
