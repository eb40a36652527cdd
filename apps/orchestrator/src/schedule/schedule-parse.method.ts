import { Inject, Injectable, type OnModuleInit } from '@nestjs/common';
import {
  ScheduleParseRequestSchema,
  type ScheduleParseRequest,
  type ScheduleParseResult,
} from '@talon/contracts';
import { parseSchedule } from '@talon/schedule';
import { ApiRouter } from '../api/api-router.js';
import type { ApiMethod } from '../api/api-method.js';
import { HAND_CATALOG, ORCHESTRATOR_CONFIG } from '../config/orchestrator.constants.js';
import type { OrchestratorConfig } from '../config/orchestrator-config.js';
import type { HandCatalog } from '../hands/hand-catalog.js';

/** `schedule.parse`: a Chinese or English message → exact / ambiguous / unclear / none, in a timezone. */
@Injectable()
export class ScheduleParseMethod
  implements ApiMethod<ScheduleParseRequest, ScheduleParseResult>, OnModuleInit
{
  readonly name = 'schedule.parse';
  readonly description =
    'Reads a schedule from a message ("每天早上9点提醒我查房", "every weekday at 9am"): cron, interval or instant, task and target.';
  readonly scope = 'read' as const;
  readonly request = ScheduleParseRequestSchema;

  constructor(
    private readonly router: ApiRouter,
    @Inject(ORCHESTRATOR_CONFIG) private readonly config: OrchestratorConfig,
    @Inject(HAND_CATALOG) private readonly hands: HandCatalog,
  ) {}

  onModuleInit(): void {
    this.router.register(this);
  }

  async handle(request: ScheduleParseRequest): Promise<ScheduleParseResult> {
    return parseSchedule(request.text, {
      timezone: request.timezone ?? this.config.timezone,
      ...(request.now !== undefined ? { now: request.now } : {}),
      hands: await this.hands.ids(),
    });
  }
}
