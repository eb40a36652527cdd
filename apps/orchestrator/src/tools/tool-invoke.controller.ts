import { Controller, Inject } from '@nestjs/common';
import { Ctx, MessagePattern, Payload } from '@nestjs/microservices';
import {
  TOOL_INVOKE_SUBJECT,
  ToolsCallRequestSchema,
  type ToolsCallReply,
  type ToolsCallRequest,
} from '@talon/contracts';
import { validatePayload, type TalonNatsContext } from '@talon/service-runtime';
import { TOOL_DISPATCHER } from '../config/orchestrator.constants.js';
import type { ToolDispatcher } from './tool-dispatcher.js';

/**
 * `tool-invoke` of WebAssembly components, on an internal subject only the wasm-runner's NATS user may
 * request (see `NATS_PERMISSIONS`), so the runner needs no API token and cannot reach the public API.
 * The call passes the dispatcher like any other (lookup, validation, rate limit, output safety, audit).
 */
@Controller()
export class ToolInvokeController {
  constructor(@Inject(TOOL_DISPATCHER) private readonly dispatcher: ToolDispatcher) {}

  @MessagePattern(TOOL_INVOKE_SUBJECT)
  invoke(@Payload() payload: unknown, @Ctx() context: TalonNatsContext): Promise<ToolsCallReply> {
    const request = validatePayload<ToolsCallRequest>(
      ToolsCallRequestSchema,
      payload,
      'The payload of tool-invoke',
    );
    return this.dispatcher.call({
      tool: request.tool,
      params: request.params,
      ...(request.sessionId ? { sessionId: request.sessionId } : {}),
      callId: request.callId ?? context.callId,
      ...(request.timeoutMs ? { timeoutMs: request.timeoutMs } : {}),
      actor: 'component:wasm-runner',
    });
  }
}
