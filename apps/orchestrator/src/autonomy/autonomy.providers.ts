import type { Provider } from '@nestjs/common';
import type { NatsConnection } from '@nats-io/transport-node';
import { SUBJECTS } from '@talon/contracts';
import type { Database } from '@talon/persistence';
import { encodeJson, type JsonLogger } from '@talon/service-runtime';
import type { ToolCatalog } from '@talon/tool-runtime';
import { talonMetrics } from '@talon/telemetry';
import type { ChatService } from '../agent/chat-service.js';
import type { SecretCipher } from '@talon/agent';
import { CHAT_SERVICE, HAND_CATALOG, SECRET_CIPHER, TOOL_CATALOG } from '../config/orchestrator.constants.js';
import type { HandCatalog } from '../hands/hand-catalog.js';
import type { OrchestratorConfig } from '../config/orchestrator-config.js';
import type { SkillServiceClient } from '../skills/skill-service-client.js';
import { SKILL_SERVICE_CLIENT } from '../skills/skills.constants.js';
import {
  JOB_ACTION_HANDLERS,
  JOB_EVENT_LOG,
  JOB_RUNNER,
  JOB_SERVICE,
  JOB_STORE,
  ROUTINE_SERVICE,
  SCHEDULER,
  AUTONOMY_TOOLS,
  SKILL_ROUTINE_SYNC,
  HAND_ROUTINE_SYNC,
} from './autonomy.constants.js';
import { handRoutineSource } from '../hands/hand-routine-source.js';
import { OwnedRoutineSync } from './owned-routine-sync.js';
import { skillRoutineSource } from './skill-routine-source.js';
import { createAutonomyTools } from './autonomy-tools.js';
import { JobActionHandlers } from './job-action-handlers.js';
import { JobActionValidator } from './job-action-validator.js';
import { JobEventLog } from './job-event-log.js';
import { JobRunner } from './job-runner.js';
import { JobService } from './job-service.js';
import { JobStore } from './job-store.js';
import { RoutineService } from './routine-service.js';
import { Scheduler } from './scheduler.js';

/** Jobs, routines, the scheduler and the job runner, wired to the database, NATS and the chat service. */
export function autonomyProviders(
  config: OrchestratorConfig,
  connection: NatsConnection,
  logger: JsonLogger,
  database: Database,
): Provider[] {
  const owner = config.instanceId;
  const jobs = new JobStore(database.prisma);
  const events = new JobEventLog(jobs, connection, logger, owner);
  const notify = (message: Record<string, unknown>): void =>
    connection.publish(SUBJECTS.jobsWake, encodeJson(message));
  return [
    { provide: JOB_STORE, useValue: jobs },
    { provide: JOB_EVENT_LOG, useValue: events },
    {
      provide: JOB_ACTION_HANDLERS,
      inject: [CHAT_SERVICE],
      useFactory: (chat: ChatService) => new JobActionHandlers(chat),
    },
    {
      provide: JOB_RUNNER,
      inject: [JOB_ACTION_HANDLERS],
      useFactory: (handlers: JobActionHandlers) => {
        const runner = new JobRunner(database.prisma, jobs, events, handlers, logger, {
          owner,
          leaseMs: config.autonomy.jobLeaseMs,
          concurrency: config.autonomy.jobConcurrency,
          pollMs: config.autonomy.schedulerTickMs,
          idlePollMs: config.autonomy.schedulerIdleTickMs,
        });
        talonMetrics().jobsRunning.observe(() => runner.running);
        return runner;
      },
    },
    {
      provide: SCHEDULER,
      useFactory: () =>
        new Scheduler(database.prisma, jobs, logger, {
          owner,
          tickMs: config.autonomy.schedulerTickMs,
          idleTickMs: config.autonomy.schedulerIdleTickMs,
          onEnqueued: () => notify({ wake: true }),
        }),
    },
    {
      provide: JOB_SERVICE,
      inject: [TOOL_CATALOG, SKILL_SERVICE_CLIENT, JOB_ACTION_HANDLERS, HAND_CATALOG],
      useFactory: (
        catalog: ToolCatalog,
        skills: SkillServiceClient,
        handlers: JobActionHandlers,
        hands: HandCatalog,
      ) => new JobService(jobs, events, new JobActionValidator(catalog, skills, handlers, hands), notify),
    },
    {
      provide: ROUTINE_SERVICE,
      inject: [
        TOOL_CATALOG,
        SKILL_SERVICE_CLIENT,
        JOB_ACTION_HANDLERS,
        SECRET_CIPHER,
        HAND_CATALOG,
        SCHEDULER,
      ],
      useFactory: (
        catalog: ToolCatalog,
        skills: SkillServiceClient,
        handlers: JobActionHandlers,
        cipher: SecretCipher,
        hands: HandCatalog,
        scheduler: Scheduler,
      ) =>
        new RoutineService(
          database.prisma,
          jobs,
          new JobActionValidator(catalog, skills, handlers, hands),
          cipher,
          owner,
          () => notify({ wake: true }),
          () => scheduler.poke(),
        ),
    },
    {
      provide: SKILL_ROUTINE_SYNC,
      inject: [SKILL_SERVICE_CLIENT, ROUTINE_SERVICE],
      useFactory: (skills: SkillServiceClient, routines: RoutineService) =>
        new OwnedRoutineSync(
          database.prisma,
          skillRoutineSource(skills),
          routines,
          logger,
          config.autonomy.skillRoutinesSyncMs,
        ),
    },
    {
      provide: HAND_ROUTINE_SYNC,
      inject: [HAND_CATALOG, ROUTINE_SERVICE],
      useFactory: (hands: HandCatalog, routines: RoutineService) =>
        new OwnedRoutineSync(
          database.prisma,
          handRoutineSource(hands),
          routines,
          logger,
          config.autonomy.handRoutinesSyncMs,
        ),
    },
    {
      provide: AUTONOMY_TOOLS,
      inject: [TOOL_CATALOG, JOB_SERVICE, ROUTINE_SERVICE],
      useFactory: (catalog: ToolCatalog, jobService: JobService, routines: RoutineService) => {
        const tools = createAutonomyTools(jobService, routines);
        for (const tool of tools) catalog.registerLocal(tool);
        return tools;
      },
    },
  ];
}
