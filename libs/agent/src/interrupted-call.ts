import { ERROR_CODES } from '@talon/contracts';
import type { LlmToolCall } from '@talon/llm';
import type { ToolCallOutcome } from './tool-call-executor.js';

/**
 * The synthetic result of a tool call that was started but whose result was never stored (its
 * orchestrator died, or another owner had started it). It keeps the history valid for the OpenAI and
 * Anthropic APIs (every tool call has a result) and tells the model the call is not re-run: whether it
 * took effect is unknown, so a non-idempotent tool must be checked before it is called again.
 */
export function interruptedOutcome(call: LlmToolCall, idempotent: boolean): ToolCallOutcome {
  const message = idempotent
    ? `"${call.name}" was interrupted: the orchestrator running it stopped before its result was stored. It was not run again; it is idempotent, so calling it again is safe.`
    : `"${call.name}" was interrupted: the orchestrator running it stopped before its result was stored, so it may or may not have taken effect. It was not run again; check its effect before calling it again.`;
  return {
    callId: call.id,
    tool: call.name,
    ok: false,
    code: ERROR_CODES.INTERRUPTED,
    content: JSON.stringify({
      error: { code: ERROR_CODES.INTERRUPTED, message, tool: call.name, callId: call.id, idempotent },
    }),
  };
}
