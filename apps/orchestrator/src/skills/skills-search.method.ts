import { Inject, Injectable, type OnModuleInit } from '@nestjs/common';
import { SkillSearchRequestSchema, type SkillSearchRequest, type SkillSearchResult } from '@talon/contracts';
import { ApiRouter } from '../api/api-router.js';
import type { ApiCallContext, ApiMethod } from '../api/api-method.js';
import type { SkillServiceClient } from './skill-service-client.js';
import { SKILL_SERVICE_CLIENT } from './skills.constants.js';

/** `skills.search`: skills ranked for a query, best first, with reasons. */
@Injectable()
export class SkillsSearchMethod implements ApiMethod<SkillSearchRequest, SkillSearchResult>, OnModuleInit {
  readonly name = 'skills.search';
  readonly description = 'Ranks skills for a query by name, keywords, tags and description.';
  readonly scope = 'read' as const;
  readonly request = SkillSearchRequestSchema;

  constructor(
    private readonly router: ApiRouter,
    @Inject(SKILL_SERVICE_CLIENT) private readonly skills: SkillServiceClient,
  ) {}

  onModuleInit(): void {
    this.router.register(this);
  }

  handle(request: SkillSearchRequest, context: ApiCallContext): Promise<SkillSearchResult> {
    return this.skills.search(request, { callId: context.callId, traceparent: context.traceparent });
  }
}
