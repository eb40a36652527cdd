import type {
  ChatCompletionCreateParamsStreaming,
  ChatCompletionMessageParam,
  ChatCompletionTool,
} from 'openai/resources/chat/completions';
import type { LlmMessage, LlmRequest, LlmToolDefinition } from './llm-types.js';

/** Which request field carries the token cap: OpenAI's own API wants the newer one. */
export type OpenAiMaxTokensField = 'max_tokens' | 'max_completion_tokens';

/** Translates a neutral request into a streaming chat-completions request body. */
export function toOpenAiRequest(
  model: string,
  request: LlmRequest,
  maxTokensField: OpenAiMaxTokensField,
): ChatCompletionCreateParamsStreaming {
  const body: ChatCompletionCreateParamsStreaming = {
    model,
    messages: request.messages.map(toOpenAiMessage),
    stream: true,
    stream_options: { include_usage: true },
  };
  if (request.tools !== undefined && request.tools.length > 0) {
    body.tools = request.tools.map(toOpenAiTool);
    body.tool_choice = request.toolChoice ?? 'auto';
  }
  if (request.maxTokens !== undefined) body[maxTokensField] = request.maxTokens;
  if (request.temperature !== undefined) body.temperature = request.temperature;
  return body;
}

function toOpenAiMessage(message: LlmMessage): ChatCompletionMessageParam {
  switch (message.role) {
    case 'system':
      return { role: 'system', content: message.content };
    case 'user':
      return { role: 'user', content: message.content };
    case 'tool':
      return { role: 'tool', tool_call_id: message.toolCallId, content: message.content };
    case 'assistant': {
      const toolCalls = message.toolCalls ?? [];
      if (toolCalls.length === 0) return { role: 'assistant', content: message.content };
      return {
        role: 'assistant',
        // Servers disagree on an empty string next to tool calls; null is what OpenAI itself sends.
        content: message.content === '' ? null : message.content,
        tool_calls: toolCalls.map((call) => ({
          id: call.id,
          type: 'function' as const,
          function: { name: call.name, arguments: JSON.stringify(call.arguments) },
        })),
      };
    }
  }
}

function toOpenAiTool(tool: LlmToolDefinition): ChatCompletionTool {
  return {
    type: 'function',
    function: { name: tool.name, description: tool.description, parameters: { ...tool.parameters } },
  };
}
