import { Inject, Injectable, type OnModuleInit } from '@nestjs/common';
import { ToolsListRequestSchema, type ToolsListReply, type ToolsListRequest } from '@talon/contracts';
import type { ToolCatalog } from '@talon/tool-runtime';
import { ApiRouter } from '../api/api-router.js';
import type { ApiMethod } from '../api/api-method.js';
import { TOOL_CATALOG } from '../config/orchestrator.constants.js';
import { listCatalog } from './catalog-view.js';

/** `tools.list`: the live catalog, optionally filtered by domain or source. */
@Injectable()
export class ToolsListMethod implements ApiMethod<ToolsListRequest, ToolsListReply>, OnModuleInit {
  readonly name = 'tools.list';
  readonly description =
    'Lists the live tool catalog: definitions, where each runs, and refused name conflicts.';
  readonly scope = 'read' as const;
  readonly request = ToolsListRequestSchema;

  constructor(
    private readonly router: ApiRouter,
    @Inject(TOOL_CATALOG) private readonly catalog: ToolCatalog,
  ) {}

  onModuleInit(): void {
    this.router.register(this);
  }

  async handle(request: ToolsListRequest): Promise<ToolsListReply> {
    return listCatalog(this.catalog, request);
  }
}
