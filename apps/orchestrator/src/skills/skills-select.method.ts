import { Inject, Injectable, type OnModuleInit } from '@nestjs/common';
import { SelectRequestSchema, type SelectRequest, type SelectResult } from '@talon/contracts';
import { gateSelectionByTools, type InstallableTools } from '@talon/skills';
import type { ToolCatalog } from '@talon/tool-runtime';
import { ApiRouter } from '../api/api-router.js';
import type { ApiCallContext, ApiMethod } from '../api/api-method.js';
import { ORCHESTRATOR_CONFIG, TOOL_CATALOG } from '../config/orchestrator.constants.js';
import type { OrchestratorConfig } from '../config/orchestrator-config.js';
import { loadInstallableTools } from './installable-tools.js';
import type { SkillServiceClient } from './skill-service-client.js';
import { SKILL_SERVICE_CLIENT } from './skills.constants.js';

/**
 * `skills.select`: what the agent loop asks each turn, callable directly to see why a skill does or does not
 * apply — including the declared-tool gate the loop applies against the live catalog.
 */
@Injectable()
export class SkillsSelectMethod implements ApiMethod<SelectRequest, SelectResult>, OnModuleInit {
  readonly name = 'skills.select';
  readonly description =
    'Selects the skills that apply to a message (keywords, tags, patterns, similarity, /mentions) with scores, reasons and injection text.';
  readonly scope = 'read' as const;
  readonly request = SelectRequestSchema;

  private readonly installable: InstallableTools;

  constructor(
    private readonly router: ApiRouter,
    @Inject(SKILL_SERVICE_CLIENT) private readonly skills: SkillServiceClient,
    @Inject(TOOL_CATALOG) private readonly catalog: ToolCatalog,
    @Inject(ORCHESTRATOR_CONFIG) config: OrchestratorConfig,
  ) {
    this.installable = loadInstallableTools(config.toolRegistry);
  }

  onModuleInit(): void {
    this.router.register(this);
  }

  async handle(request: SelectRequest, context: ApiCallContext): Promise<SelectResult> {
    const { message, ...options } = request;
    const selection = await this.skills.select(message, {
      ...options,
      callId: context.callId,
      traceparent: context.traceparent,
    });
    const catalog = new Set(this.catalog.list().map((entry) => entry.definition.name));
    return gateSelectionByTools(selection, catalog, this.installable);
  }
}
