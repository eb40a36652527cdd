import type { LlmCallOptions, LlmProvider } from './llm-provider.js';
import {
  LLM_STOP_REASONS,
  type LlmMalformedToolCallEvent,
  type LlmRequest,
  type LlmStopReason,
  type LlmStreamEvent,
  type LlmToolCall,
  type LlmUsage,
} from './llm-types.js';

/** A whole model reply, collected from a stream. */
export interface LlmCompletion {
  readonly text: string;
  readonly toolCalls: readonly LlmToolCall[];
  readonly malformedToolCalls: readonly Omit<LlmMalformedToolCallEvent, 'type'>[];
  /** Absent when the server did not report usage. */
  readonly usage?: LlmUsage;
  readonly stopReason: LlmStopReason;
}

/** Collects any provider stream into one {@link LlmCompletion}. */
export async function collectLlmStream(events: AsyncIterable<LlmStreamEvent>): Promise<LlmCompletion> {
  let text = '';
  const toolCalls: LlmToolCall[] = [];
  const malformedToolCalls: Omit<LlmMalformedToolCallEvent, 'type'>[] = [];
  let usage: LlmUsage | undefined;
  let stopReason: LlmStopReason = LLM_STOP_REASONS.other;
  for await (const event of events) {
    switch (event.type) {
      case 'text_delta':
        text += event.text;
        break;
      case 'tool_call':
        toolCalls.push(event.toolCall);
        break;
      case 'tool_call_malformed': {
        const { type: _type, ...rest } = event;
        malformedToolCalls.push(rest);
        break;
      }
      case 'usage':
        usage = event.usage;
        break;
      case 'done':
        stopReason = event.stopReason;
        break;
    }
  }
  return usage === undefined
    ? { text, toolCalls, malformedToolCalls, stopReason }
    : { text, toolCalls, malformedToolCalls, usage, stopReason };
}

/** Calls the model and waits for the whole reply (no streaming). */
export function complete(
  provider: LlmProvider,
  request: LlmRequest,
  options: LlmCallOptions = {},
): Promise<LlmCompletion> {
  return collectLlmStream(provider.stream(request, options));
}
