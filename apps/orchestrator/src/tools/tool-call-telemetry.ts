import type { ToolsCallReply } from '@talon/contracts';
import { redactParams, type ToolCatalog } from '@talon/tool-runtime';
import { ATTR, inSpan, isTracingEnabled, talonMetrics } from '@talon/telemetry';
import type { DispatchRequest } from './tool-dispatcher.js';

/** Longest params text put on a span; the rest is cut (spans are for finding a call, not replaying it). */
const MAX_PARAMS_ATTRIBUTE = 1024;

function paramsText(request: DispatchRequest, sensitive: readonly string[]): string | undefined {
  if (request.params === null || typeof request.params !== 'object') return undefined;
  const text = JSON.stringify(redactParams(request.params as Record<string, unknown>, sensitive));
  return text.length > MAX_PARAMS_ATTRIBUTE ? `${text.slice(0, MAX_PARAMS_ATTRIBUTE)}…` : text;
}

/**
 * Wraps one dispatch in its metrics (`talon_tool_calls_total` by code, the latency histogram, in-flight) and,
 * with tracing on, a `talon.tool.dispatch` span with the domain, attempts, answering instance and the params
 * with sensitive ones redacted. Kept out of the dispatcher so its logic reads as before.
 */
export async function observeToolCall(
  catalog: ToolCatalog,
  request: DispatchRequest,
  dispatch: () => Promise<ToolsCallReply>,
): Promise<ToolsCallReply> {
  const entry = catalog.get(request.tool);
  const tool = entry ? entry.definition.name : 'unknown';
  const domain = entry ? (entry.location === 'local' ? 'local' : entry.definition.domain) : 'unknown';
  const metrics = talonMetrics();
  metrics.toolCallsInFlight.inc(domain);
  const started = performance.now();
  try {
    const reply = isTracingEnabled()
      ? await inSpan(
          'talon.tool.dispatch',
          {
            attributes: {
              [ATTR.genAiToolName]: tool,
              [ATTR.toolDomain]: domain,
              ...(request.callId ? { [ATTR.callId]: request.callId } : {}),
              ...(request.sessionId ? { [ATTR.sessionId]: request.sessionId } : {}),
              ...(entry
                ? { [ATTR.toolParams]: paramsText(request, entry.definition.sensitiveParams ?? []) }
                : {}),
            },
          },
          async (span) => {
            const answered = await dispatch();
            span.setAttribute(ATTR.attempts, answered.attempts);
            if (answered.instanceId) span.setAttribute(ATTR.instanceId, answered.instanceId);
            return answered;
          },
        )
      : await dispatch();
    metrics.toolCalls.inc({ tool, domain, code: 'ok' });
    return reply;
  } catch (error) {
    const code = (error as { code?: unknown })?.code;
    metrics.toolCalls.inc({ tool, domain, code: typeof code === 'string' ? code : 'INTERNAL' });
    throw error;
  } finally {
    metrics.toolCallsInFlight.dec(domain);
    metrics.toolCallDuration.observe({ tool, domain }, (performance.now() - started) / 1000);
  }
}
