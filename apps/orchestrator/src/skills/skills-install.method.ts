import { Inject, Injectable, type OnModuleInit } from '@nestjs/common';
import {
  SkillInstallRequestSchema,
  type SkillInstallRequest,
  type SkillInstallResult,
} from '@talon/contracts';
import { ApiRouter } from '../api/api-router.js';
import type { ApiCallContext, ApiMethod } from '../api/api-method.js';
import type { SkillServiceClient } from './skill-service-client.js';
import { SKILL_SERVICE_CLIENT } from './skills.constants.js';

/** `skills.install`: a new Installed skill, visible to the next call once this answers. */
@Injectable()
export class SkillsInstallMethod implements ApiMethod<SkillInstallRequest, SkillInstallResult>, OnModuleInit {
  readonly name = 'skills.install';
  readonly description =
    'Installs a skill from a registry entry, a URL or a path, sha256-checked, into the installed directory as Installed.';
  readonly scope = 'operator' as const;
  readonly request = SkillInstallRequestSchema;

  constructor(
    private readonly router: ApiRouter,
    @Inject(SKILL_SERVICE_CLIENT) private readonly skills: SkillServiceClient,
  ) {}

  onModuleInit(): void {
    this.router.register(this);
  }

  handle(request: SkillInstallRequest, context: ApiCallContext): Promise<SkillInstallResult> {
    return this.skills.install(request, { callId: context.callId, traceparent: context.traceparent });
  }
}
