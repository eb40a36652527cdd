import { Inject, Injectable, type OnModuleInit } from '@nestjs/common';
import { ToolsCallRequestSchema, type ToolsCallReply, type ToolsCallRequest } from '@talon/contracts';
import { ApiRouter } from '../api/api-router.js';
import type { ApiCallContext, ApiMethod } from '../api/api-method.js';
import { TOOL_DISPATCHER } from '../config/orchestrator.constants.js';
import type { ToolDispatcher } from './tool-dispatcher.js';

/** `tools.call`: run one tool through the whole pipeline, as an operator. */
@Injectable()
export class ToolsCallMethod implements ApiMethod<ToolsCallRequest, ToolsCallReply>, OnModuleInit {
  readonly name = 'tools.call';
  readonly description = 'Runs one tool through the full pipeline (validation, policy, dispatch, output safety, audit).';
  readonly request = ToolsCallRequestSchema;

  constructor(
    private readonly router: ApiRouter,
    @Inject(TOOL_DISPATCHER) private readonly dispatcher: ToolDispatcher,
  ) {}

  onModuleInit(): void {
    this.router.register(this);
  }

  handle(request: ToolsCallRequest, context: ApiCallContext): Promise<ToolsCallReply> {
    return this.dispatcher.call({ ...request, callId: request.callId ?? context.callId, actor: `operator:${context.surface}` });
  }
}
