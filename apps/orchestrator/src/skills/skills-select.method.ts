import { Inject, Injectable, type OnModuleInit } from '@nestjs/common';
import { SelectRequestSchema, type SelectRequest, type SelectResult } from '@talon/contracts';
import { ApiRouter } from '../api/api-router.js';
import type { ApiCallContext, ApiMethod } from '../api/api-method.js';
import type { SkillServiceClient } from './skill-service-client.js';
import { SKILL_SERVICE_CLIENT } from './skills.constants.js';

/** `skills.select`: what the agent loop asks each turn, callable directly to see why a skill does or does not apply. */
@Injectable()
export class SkillsSelectMethod implements ApiMethod<SelectRequest, SelectResult>, OnModuleInit {
  readonly name = 'skills.select';
  readonly description =
    'Selects the skills that apply to a message (keywords, tags, patterns, similarity, /mentions) with scores, reasons and injection text.';
  readonly scope = 'read' as const;
  readonly request = SelectRequestSchema;

  constructor(
    private readonly router: ApiRouter,
    @Inject(SKILL_SERVICE_CLIENT) private readonly skills: SkillServiceClient,
  ) {}

  onModuleInit(): void {
    this.router.register(this);
  }

  handle(request: SelectRequest, context: ApiCallContext): Promise<SelectResult> {
    const { message, ...options } = request;
    return this.skills.select(message, {
      ...options,
      callId: context.callId,
      traceparent: context.traceparent,
    });
  }
}
