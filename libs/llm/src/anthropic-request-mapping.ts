import type {
  ContentBlockParam,
  MessageCreateParamsStreaming,
  MessageParam,
  Tool,
  ToolChoice,
} from '@anthropic-ai/sdk/resources/messages';
import type { LlmMessage, LlmRequest, LlmToolChoice, LlmToolDefinition } from './llm-types.js';

const TOOL_CHOICE: Readonly<Record<LlmToolChoice, ToolChoice>> = {
  auto: { type: 'auto' },
  required: { type: 'any' },
  none: { type: 'none' },
};

/**
 * Translates a neutral request into a streaming Messages API body: system messages become the
 * `system` parameter; tool results become `tool_result` blocks in a user turn (ahead of any text, as
 * the API requires); consecutive turns of one role are merged, because the API alternates roles.
 */
export function toAnthropicRequest(
  model: string,
  request: LlmRequest,
  defaultMaxTokens: number,
): MessageCreateParamsStreaming {
  const system = request.messages
    .filter((message) => message.role === 'system')
    .map((message) => message.content)
    .join('\n\n');
  const body: MessageCreateParamsStreaming = {
    model,
    max_tokens: request.maxTokens ?? defaultMaxTokens,
    messages: toAnthropicMessages(request.messages),
    stream: true,
  };
  if (system !== '') body.system = system;
  if (request.tools !== undefined && request.tools.length > 0) {
    body.tools = request.tools.map(toAnthropicTool);
    body.tool_choice = TOOL_CHOICE[request.toolChoice ?? 'auto'];
  }
  return body;
}

interface Turn {
  role: 'user' | 'assistant';
  leading: ContentBlockParam[];
  trailing: ContentBlockParam[];
}

function toAnthropicMessages(messages: readonly LlmMessage[]): MessageParam[] {
  const turns: Turn[] = [];
  const turnFor = (role: Turn['role']): Turn => {
    const last = turns.at(-1);
    if (last?.role === role) return last;
    const turn: Turn = { role, leading: [], trailing: [] };
    turns.push(turn);
    return turn;
  };
  for (const message of messages) {
    switch (message.role) {
      case 'system':
        break;
      case 'user':
        // The API refuses empty text blocks.
        if (message.content !== '') turnFor('user').trailing.push({ type: 'text', text: message.content });
        break;
      case 'tool':
        turnFor('user').leading.push({
          type: 'tool_result',
          tool_use_id: message.toolCallId,
          content: message.images?.length
            ? [
                { type: 'text', text: message.content },
                ...message.images.map((image) => ({
                  type: 'image' as const,
                  source: {
                    type: 'base64' as const,
                    media_type: image.mimeType as 'image/png',
                    data: image.data,
                  },
                })),
              ]
            : message.content,
          ...(message.isError ? { is_error: true } : {}),
        });
        break;
      case 'assistant': {
        const turn = turnFor('assistant');
        if (message.content !== '') turn.trailing.push({ type: 'text', text: message.content });
        for (const call of message.toolCalls ?? []) {
          turn.trailing.push({
            type: 'tool_use',
            id: call.id,
            name: call.name,
            input: { ...call.arguments },
          });
        }
        break;
      }
    }
  }
  return turns
    .map((turn) => ({ role: turn.role, content: [...turn.leading, ...turn.trailing] }))
    .filter((turn) => turn.content.length > 0);
}

function toAnthropicTool(tool: LlmToolDefinition): Tool {
  return {
    name: tool.name,
    description: tool.description,
    input_schema: { type: 'object', ...tool.parameters } as Tool['input_schema'],
  };
}
