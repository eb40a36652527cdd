import { Inject, Injectable, type OnModuleInit } from '@nestjs/common';
import { EmptyRequestSchema, type EmptyRequest, type SkillTriggerTable } from '@talon/contracts';
import { ApiRouter } from '../api/api-router.js';
import type { ApiCallContext, ApiMethod } from '../api/api-method.js';
import type { SkillServiceClient } from './skill-service-client.js';
import { SKILL_SERVICE_CLIENT } from './skills.constants.js';

/** `skills.triggers`: routes for `/command` messages, cron schedules and webhook events. */
@Injectable()
export class SkillsTriggersMethod implements ApiMethod<EmptyRequest, SkillTriggerTable>, OnModuleInit {
  readonly name = 'skills.triggers';
  readonly description = 'Lists the command, schedule, webhook and manual triggers of the eligible skills.';
  readonly scope = 'read' as const;
  readonly request = EmptyRequestSchema;

  constructor(
    private readonly router: ApiRouter,
    @Inject(SKILL_SERVICE_CLIENT) private readonly skills: SkillServiceClient,
  ) {}

  onModuleInit(): void {
    this.router.register(this);
  }

  handle(_request: EmptyRequest, context: ApiCallContext): Promise<SkillTriggerTable> {
    return this.skills.triggers({ callId: context.callId, traceparent: context.traceparent });
  }
}
