/**
 * A local server that speaks the Anthropic Messages API the way api.anthropic.com streams it, for
 * tests of the Anthropic provider and of the agent loop (which may import it from here).
 *
 *   const server = await startAnthropicMessagesServer({ apiKey: 'sk-ant-test' });
 *   server.enqueue({ text: 'Let me check.', toolCalls: [{ name: 'echo', arguments: { text: 'hi' } }] });
 *   server.failNext(2, { status: 529 });
 *   new AnthropicProvider({ baseURL: server.baseURL, apiKey: 'sk-ant-test', model: 'claude-test' });
 *
 * Stream shape: `event: <type>\ndata: {json}\n\n` frames — `message_start` (input usage),
 * `content_block_start` / `content_block_delta` (`text_delta`, or `input_json_delta` carrying the
 * tool input cut into several `partial_json` pieces, the first one empty as the real API sends it) /
 * `content_block_stop` per block, a `ping`, `message_delta` (stop_reason, output usage) and
 * `message_stop`. In-stream errors are `event: error`. Request bodies are checked like the real API
 * does: roles alternate starting with a user turn, `max_tokens` is present, every `tool_use` is
 * answered by a `tool_result` with its id in the very next user turn, ahead of any text.
 */
import { randomBytes } from 'node:crypto';
import {
  splitIntoPieces,
  startLlmTestServer,
  textDeltas,
  type LlmTestProtocol,
  type LlmTestServer,
  type LlmTestServerOptions,
} from './llm-test-server.js';

export type {
  LlmTestReply,
  LlmTestReplyFactory,
  LlmTestFailure,
  LlmTestServer,
  RecordedLlmRequest,
} from './llm-test-server.js';

const TOOL_NAME = /^[a-zA-Z0-9_-]{1,64}$/;
const ERROR_TYPE_BY_STATUS: Readonly<Record<number, string>> = {
  400: 'invalid_request_error',
  401: 'authentication_error',
  403: 'permission_error',
  404: 'not_found_error',
  429: 'rate_limit_error',
  529: 'overloaded_error',
};

const event = (type: string, data: Record<string, unknown>) =>
  `event: ${type}\ndata: ${JSON.stringify({ type, ...data })}\n\n`;

const anthropicProtocol: LlmTestProtocol = {
  path: '/v1/messages',
  baseURL: (origin) => origin,
  // The API takes the key as `x-api-key` or, as the current SDK sends it, `Authorization: Bearer`.
  authorized: (headers, apiKey) =>
    apiKey === undefined || headers['x-api-key'] === apiKey || headers.authorization === `Bearer ${apiKey}`,
  errorBody: (status, message) => ({
    type: 'error',
    error: { type: ERROR_TYPE_BY_STATUS[status] ?? 'api_error', message },
  }),
  streamErrorFrame: (message) => event('error', { error: { type: 'overloaded_error', message } }),
  validate: validateMessagesRequest,
  frames(reply, body, nextId) {
    const texts = textDeltas(reply);
    const calls = reply.toolCalls ?? [];
    const usage = reply.usage ?? {
      inputTokens: Math.ceil(JSON.stringify(body).length / 40),
      outputTokens: 0,
    };
    const frames = [
      event('message_start', {
        message: {
          id: `msg_${randomBytes(12).toString('hex')}`,
          type: 'message',
          role: 'assistant',
          model: body.model,
          content: [],
          stop_reason: null,
          stop_sequence: null,
          usage: {
            input_tokens: usage.inputTokens,
            cache_creation_input_tokens: 0,
            cache_read_input_tokens: 0,
            output_tokens: 1,
          },
        },
      }),
    ];
    let index = 0;
    let deltas = 0;
    if (texts.length > 0) {
      frames.push(event('content_block_start', { index, content_block: { type: 'text', text: '' } }));
      frames.push(event('ping', {}));
      for (const text of texts) {
        frames.push(event('content_block_delta', { index, delta: { type: 'text_delta', text } }));
        deltas++;
      }
      frames.push(event('content_block_stop', { index }));
      index++;
    }
    for (const call of calls) {
      const json = typeof call.arguments === 'string' ? call.arguments : JSON.stringify(call.arguments);
      frames.push(
        event('content_block_start', {
          index,
          content_block: { type: 'tool_use', id: call.id ?? nextId('toolu_'), name: call.name, input: {} },
        }),
      );
      for (const piece of ['', ...splitIntoPieces(json, reply.argumentChunks ?? 3)]) {
        frames.push(
          event('content_block_delta', { index, delta: { type: 'input_json_delta', partial_json: piece } }),
        );
        deltas++;
      }
      frames.push(event('content_block_stop', { index }));
      index++;
    }
    const stopReason = reply.stopReason ?? (calls.length > 0 ? 'tool_use' : 'end_turn');
    frames.push(
      event('message_delta', {
        delta: { stop_reason: stopReason, stop_sequence: null },
        usage: { output_tokens: reply.usage?.outputTokens ?? deltas },
      }),
    );
    frames.push(event('message_stop', {}));
    return frames;
  },
};

/** Starts an Anthropic Messages API server on 127.0.0.1 and a random port. */
export function startAnthropicMessagesServer(options: LlmTestServerOptions = {}): Promise<LlmTestServer> {
  return startLlmTestServer(anthropicProtocol, options);
}

type Block = { type?: string; text?: unknown; id?: unknown; tool_use_id?: unknown; name?: unknown };

function validateMessagesRequest(body: Record<string, unknown>): string | undefined {
  if (typeof body.model !== 'string' || body.model === '') return 'model: Field required';
  if (!Number.isInteger(body.max_tokens) || (body.max_tokens as number) < 1)
    return 'max_tokens: Field required (a positive integer)';
  if (body.system !== undefined && typeof body.system !== 'string' && !Array.isArray(body.system))
    return 'system: must be a string or an array of text blocks';
  for (const tool of (body.tools as { name?: string; input_schema?: { type?: string } }[] | undefined) ??
    []) {
    if (!TOOL_NAME.test(tool.name ?? ''))
      return `tools: name '${tool.name}' must match ^[a-zA-Z0-9_-]{1,64}$`;
    if (tool.input_schema?.type !== 'object') return `tools.${tool.name}.input_schema.type: must be 'object'`;
  }
  const messages = body.messages;
  if (!Array.isArray(messages) || messages.length === 0) return 'messages: at least one message is required';
  let pendingToolUses: string[] = [];
  for (const [position, message] of (messages as { role?: string; content?: unknown }[]).entries()) {
    const expected = position % 2 === 0 ? 'user' : 'assistant';
    if (message.role !== expected)
      return `messages.${position}.role: expected '${expected}' (roles must alternate, starting with 'user')`;
    const blocks: Block[] =
      typeof message.content === 'string'
        ? [{ type: 'text', text: message.content }]
        : ((message.content as Block[]) ?? []);
    if (!Array.isArray(blocks) || blocks.length === 0)
      return `messages.${position}.content: must not be empty`;
    for (const block of blocks) {
      if (block.type === 'text' && (typeof block.text !== 'string' || block.text === ''))
        return `messages.${position}: text content blocks must be non-empty`;
    }
    const results = blocks.filter((block) => block.type === 'tool_result');
    if (pendingToolUses.length > 0) {
      const answered = results.map((block) => String(block.tool_use_id));
      const missing = pendingToolUses.filter((id) => !answered.includes(id));
      if (missing.length > 0)
        return `messages.${position}: tool_use ids were found without tool_result blocks immediately after: ${missing.join(', ')}`;
      const firstOther = blocks.findIndex((block) => block.type !== 'tool_result');
      if (firstOther !== -1 && firstOther < results.length)
        return `messages.${position}: tool_result blocks must come before any other content`;
    }
    for (const result of results) {
      if (!pendingToolUses.includes(String(result.tool_use_id))) {
        return `messages.${position}: unexpected tool_use_id found in tool_result blocks: ${String(result.tool_use_id)}`;
      }
    }
    pendingToolUses =
      message.role === 'assistant'
        ? blocks.filter((block) => block.type === 'tool_use').map((block) => String(block.id))
        : [];
  }
  if (pendingToolUses.length > 0 && (messages as unknown[]).length % 2 === 0) {
    return 'the conversation ends with tool_use blocks that have no tool_result';
  }
  return undefined;
}
