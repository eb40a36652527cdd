import { randomUUID } from 'node:crypto';
import { TOOL_INVOKE_SUBJECT, type ToolsCallReply, type ToolsCallRequest } from '@talon/contracts';
import type { NatsRequester } from '@talon/service-runtime';
import type { HostCallContext, ToolInvoker } from '@talon/wasm-host';

/** Time a `tool-invoke` may take when the calling tool's own timeout does not bound it sooner. */
const DEFAULT_INVOKE_TIMEOUT_MS = 30_000;

/**
 * `tool-invoke` for components: the aliased tool is called through the orchestrator (on the internal
 * `talon.tools.v1.invoke` subject, not the public API), so it passes the same dispatcher as any other call (lookup, parameter validation, rate limit, output safety,
 * audit). The guest receives the tool's structured output.
 */
export function orchestratorToolInvoker(
  requester: NatsRequester,
  timeoutMs = DEFAULT_INVOKE_TIMEOUT_MS,
): ToolInvoker {
  return async (toolName: string, params: Record<string, unknown>, call: HostCallContext) => {
    const request: ToolsCallRequest = {
      tool: toolName,
      params,
      callId: `${call.callId}:invoke:${randomUUID().slice(0, 8)}`,
      ...(call.sessionId ? { sessionId: call.sessionId } : {}),
    };
    const reply = await requester.request<ToolsCallReply>(TOOL_INVOKE_SUBJECT, request, {
      timeoutMs,
      callId: request.callId,
    });
    return reply.output;
  };
}
