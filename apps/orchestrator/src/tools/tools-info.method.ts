import { Inject, Injectable, type OnModuleInit } from '@nestjs/common';
import { ToolsInfoRequestSchema, type CatalogTool, type ToolsInfoRequest } from '@talon/contracts';
import { UnknownToolError, type ToolCatalog } from '@talon/tool-runtime';
import { ApiRouter } from '../api/api-router.js';
import type { ApiMethod } from '../api/api-method.js';
import { TOOL_CATALOG } from '../config/orchestrator.constants.js';
import { toCatalogTool } from './catalog-view.js';

/** `tools.info`: one tool's definition and instances. */
@Injectable()
export class ToolsInfoMethod implements ApiMethod<ToolsInfoRequest, CatalogTool>, OnModuleInit {
  readonly name = 'tools.info';
  readonly description =
    'Describes one tool: parameters, effects, approval, timeout and the instances that run it.';
  readonly scope = 'read' as const;
  readonly request = ToolsInfoRequestSchema;

  constructor(
    private readonly router: ApiRouter,
    @Inject(TOOL_CATALOG) private readonly catalog: ToolCatalog,
  ) {}

  onModuleInit(): void {
    this.router.register(this);
  }

  async handle(request: ToolsInfoRequest): Promise<CatalogTool> {
    const entry = this.catalog.get(request.name);
    if (!entry) throw new UnknownToolError(request.name);
    return toCatalogTool(entry);
  }
}
