/**
 * A local server that speaks OpenAI chat completions the way api.openai.com streams them, for tests
 * of the OpenAI provider and of the agent loop (which may import it from here).
 *
 *   const server = await startOpenAiCompatibleServer({ apiKey: 'sk-test' });
 *   server.enqueue({ text: ['Hel', 'lo'] }, { toolCalls: [{ name: 'echo', arguments: { text: 'hi' } }] });
 *   server.failNext(1, { status: 429, headers: { 'retry-after': '0.05' } });
 *   new OpenAiProvider({ baseURL: server.baseURL, apiKey: 'sk-test', model: 'gpt-test' });
 *   server.requests[0].body; // the JSON the SDK sent
 *   await server.close();
 *
 * Stream shape: `data: {chat.completion.chunk}\n\n` frames — a role chunk, one chunk per text delta,
 * per tool call a first chunk with `index`, `id`, `type` and `function.name` and then its argument
 * JSON cut across several chunks, a chunk with `finish_reason`, a usage chunk with empty `choices`
 * when `stream_options.include_usage` is set, and `data: [DONE]`. Request bodies are checked like the
 * real API does (every tool call answered by a `tool` message with its id, and no stray tool message).
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

const openAiProtocol: LlmTestProtocol = {
  path: '/v1/chat/completions',
  baseURL: (origin) => `${origin}/v1`,
  authorized: (headers, apiKey) => apiKey === undefined || headers.authorization === `Bearer ${apiKey}`,
  errorBody: (status, message) => ({
    error: {
      message,
      type:
        status === 401
          ? 'invalid_request_error'
          : status === 429
            ? 'requests'
            : status >= 500
              ? 'server_error'
              : 'invalid_request_error',
      param: null,
      code: status === 401 ? 'invalid_api_key' : status === 429 ? 'rate_limit_exceeded' : null,
    },
  }),
  streamErrorFrame: (message) =>
    `data: ${JSON.stringify({ error: { message, type: 'server_error', param: null, code: null } })}\n\n`,
  validate: validateChatRequest,
  frames(reply, body, nextId) {
    const id = `chatcmpl-${randomBytes(8).toString('hex')}`;
    const created = Math.floor(Date.now() / 1000);
    const model = String(body.model);
    const chunk = (choices: unknown[], extra: Record<string, unknown> = {}) =>
      `data: ${JSON.stringify({ id, object: 'chat.completion.chunk', created, model, system_fingerprint: 'fp_test', choices, ...extra })}\n\n`;
    const delta = (value: Record<string, unknown>, finishReason: string | null = null) =>
      chunk([{ index: 0, delta: value, logprobs: null, finish_reason: finishReason }]);

    const frames = [delta({ role: 'assistant', content: '', refusal: null })];
    const texts = textDeltas(reply);
    for (const text of texts) frames.push(delta({ content: text }));
    const calls = reply.toolCalls ?? [];
    let argumentFrames = 0;
    calls.forEach((call, index) => {
      const json = typeof call.arguments === 'string' ? call.arguments : JSON.stringify(call.arguments);
      const callId = call.id ?? nextId('call_');
      frames.push(
        delta({
          tool_calls: [{ index, id: callId, type: 'function', function: { name: call.name, arguments: '' } }],
        }),
      );
      for (const piece of splitIntoPieces(json, reply.argumentChunks ?? 3)) {
        frames.push(delta({ tool_calls: [{ index, function: { arguments: piece } }] }));
        argumentFrames++;
      }
    });
    frames.push(delta({}, reply.stopReason ?? (calls.length > 0 ? 'tool_calls' : 'stop')));
    const streamOptions = body.stream_options as { include_usage?: boolean } | undefined;
    if (streamOptions?.include_usage) {
      const usage = reply.usage ?? {
        inputTokens: Math.ceil(JSON.stringify(body).length / 40),
        outputTokens: texts.length + argumentFrames,
      };
      frames.push(
        chunk([], {
          usage: {
            prompt_tokens: usage.inputTokens,
            completion_tokens: usage.outputTokens,
            total_tokens: usage.inputTokens + usage.outputTokens,
          },
        }),
      );
    }
    frames.push('data: [DONE]\n\n');
    return frames;
  },
};

/** Starts an OpenAI-compatible chat-completions server on 127.0.0.1 and a random port. */
export function startOpenAiCompatibleServer(options: LlmTestServerOptions = {}): Promise<LlmTestServer> {
  return startLlmTestServer(openAiProtocol, options);
}

function validateChatRequest(body: Record<string, unknown>): string | undefined {
  if (typeof body.model !== 'string' || body.model === '') return "'model' is required";
  if (!Array.isArray(body.messages) || body.messages.length === 0)
    return "'messages' must be a non-empty array";
  for (const tool of (body.tools as unknown[] | undefined) ?? []) {
    const fn = (tool as { type?: string; function?: { name?: string; parameters?: unknown } }).function;
    if ((tool as { type?: string }).type !== 'function' || fn === undefined)
      return "each tool must be {type: 'function', function: {...}}";
    if (!TOOL_NAME.test(fn.name ?? ''))
      return `Invalid 'tools[].function.name': '${fn.name}' must match ^[a-zA-Z0-9_-]{1,64}$`;
  }
  let unanswered: string[] = [];
  for (const [position, message] of (body.messages as Record<string, unknown>[]).entries()) {
    if (message.role === 'tool') {
      const id = message.tool_call_id;
      if (typeof id !== 'string' || !unanswered.includes(id)) {
        return `Invalid parameter: messages[${position}] with role 'tool' must be a response to a preceding message with 'tool_calls' (tool_call_id ${String(id)})`;
      }
      if (typeof message.content !== 'string') return `messages[${position}].content must be a string`;
      unanswered = unanswered.filter((pending) => pending !== id);
      continue;
    }
    if (unanswered.length > 0) {
      return `An assistant message with 'tool_calls' must be followed by tool messages responding to each 'tool_call_id'. Missing: ${unanswered.join(', ')}`;
    }
    const toolCalls = message.tool_calls as
      { id?: string; type?: string; function?: { name?: string; arguments?: unknown } }[] | undefined;
    if (message.role === 'assistant' && toolCalls !== undefined) {
      for (const call of toolCalls) {
        if (
          typeof call.id !== 'string' ||
          call.type !== 'function' ||
          typeof call.function?.arguments !== 'string'
        ) {
          return `messages[${position}].tool_calls entries need an id, type 'function' and string arguments`;
        }
      }
      unanswered = toolCalls.map((call) => call.id as string);
    } else if (!['system', 'developer', 'user', 'assistant'].includes(String(message.role))) {
      return `messages[${position}] has an unknown role '${String(message.role)}'`;
    }
  }
  if (unanswered.length > 0)
    return `tool_calls without tool messages at the end of the conversation: ${unanswered.join(', ')}`;
  return undefined;
}
