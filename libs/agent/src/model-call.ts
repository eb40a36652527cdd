import type { LlmMessage, LlmProvider, LlmToolCall, LlmToolDefinition, LlmUsage } from '@talon/llm';

/** A tool call as the model made it: parsed, or malformed with the problem to report back. */
export type ModelToolCall =
  | { readonly call: LlmToolCall; readonly malformed?: undefined }
  | { readonly call: LlmToolCall; readonly malformed: string };

/** What one model call produced. */
export interface ModelReply {
  readonly text: string;
  readonly toolCalls: readonly ModelToolCall[];
  readonly usage?: LlmUsage;
}

/** What {@link callModel} needs. */
export interface ModelCallRequest {
  readonly provider: LlmProvider;
  readonly messages: readonly LlmMessage[];
  readonly tools: readonly LlmToolDefinition[];
  readonly maxTokens?: number;
  readonly temperature?: number;
  readonly signal?: AbortSignal;
  readonly onText: (text: string) => void;
}

const NO_ARGUMENTS: Readonly<Record<string, unknown>> = Object.freeze({});

/**
 * Streams one model call, forwarding text deltas as they come and collecting tool calls in order.
 * A malformed call is kept with `{}` arguments so the history replays a valid call with its error result.
 */
export async function callModel(request: ModelCallRequest): Promise<ModelReply> {
  let text = '';
  const toolCalls: ModelToolCall[] = [];
  let usage: LlmUsage | undefined;
  const stream = request.provider.stream(
    {
      messages: request.messages,
      ...(request.tools.length > 0 ? { tools: request.tools } : {}),
      ...(request.maxTokens === undefined ? {} : { maxTokens: request.maxTokens }),
      ...(request.temperature === undefined ? {} : { temperature: request.temperature }),
    },
    { signal: request.signal },
  );
  for await (const event of stream) {
    switch (event.type) {
      case 'text_delta':
        text += event.text;
        request.onText(event.text);
        break;
      case 'tool_call':
        toolCalls.push({ call: event.toolCall });
        break;
      case 'tool_call_malformed':
        toolCalls.push({
          call: { id: event.id, name: event.name, arguments: NO_ARGUMENTS },
          malformed: event.message,
        });
        break;
      case 'usage':
        usage = event.usage;
        break;
      case 'done':
        break;
    }
  }
  return { text, toolCalls, ...(usage === undefined ? {} : { usage }) };
}
