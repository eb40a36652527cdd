import { Inject, Injectable, type OnModuleInit } from '@nestjs/common';
import { SkillRemoveRequestSchema, type SkillRemoveRequest, type SkillRemoveResult } from '@talon/contracts';
import { ApiRouter } from '../api/api-router.js';
import type { ApiCallContext, ApiMethod } from '../api/api-method.js';
import type { SkillServiceClient } from './skill-service-client.js';
import { SKILL_SERVICE_CLIENT } from './skills.constants.js';

/** `skills.remove`: deletes an installed skill; `removed: false` when no installed skill has that name. */
@Injectable()
export class SkillsRemoveMethod implements ApiMethod<SkillRemoveRequest, SkillRemoveResult>, OnModuleInit {
  readonly name = 'skills.remove';
  readonly description = 'Removes an installed skill; workspace and user skills are never touched.';
  readonly scope = 'operator' as const;
  readonly request = SkillRemoveRequestSchema;

  constructor(
    private readonly router: ApiRouter,
    @Inject(SKILL_SERVICE_CLIENT) private readonly skills: SkillServiceClient,
  ) {}

  onModuleInit(): void {
    this.router.register(this);
  }

  handle(request: SkillRemoveRequest, context: ApiCallContext): Promise<SkillRemoveResult> {
    return this.skills.remove(request.name, { callId: context.callId, traceparent: context.traceparent });
  }
}
