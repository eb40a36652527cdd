import { Inject, Injectable, type OnModuleInit } from '@nestjs/common';
import { SkillListRequestSchema, type SkillListRequest, type SkillListResult } from '@talon/contracts';
import { ApiRouter } from '../api/api-router.js';
import type { ApiCallContext, ApiMethod } from '../api/api-method.js';
import type { SkillServiceClient } from './skill-service-client.js';
import { SKILL_SERVICE_CLIENT } from './skills.constants.js';

/** `skills.list`: the skill-service's current discovery, filtered by trust or eligibility. */
@Injectable()
export class SkillsListMethod implements ApiMethod<SkillListRequest, SkillListResult>, OnModuleInit {
  readonly name = 'skills.list';
  readonly description =
    'Lists the discovered skills (workspace, user, installed) with trust, gating and triggers, plus refused and shadowed files.';
  readonly scope = 'read' as const;
  readonly request = SkillListRequestSchema;

  constructor(
    private readonly router: ApiRouter,
    @Inject(SKILL_SERVICE_CLIENT) private readonly skills: SkillServiceClient,
  ) {}

  onModuleInit(): void {
    this.router.register(this);
  }

  handle(request: SkillListRequest, context: ApiCallContext): Promise<SkillListResult> {
    return this.skills.list(request, { callId: context.callId, traceparent: context.traceparent });
  }
}
