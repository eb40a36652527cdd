import type { LlmMessage, LlmProvider, LlmToolCall, LlmToolDefinition, LlmUsage } from '@talon/llm';
import { ATTR, inSpan, SpanKind, talonMetrics, type Span } from '@talon/telemetry';

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
export function callModel(request: ModelCallRequest): Promise<ModelReply> {
  const { name: provider, model } = request.provider;
  return inSpan(
    `chat ${model}`,
    {
      kind: SpanKind.CLIENT,
      attributes: {
        [ATTR.genAiOperation]: 'chat',
        [ATTR.genAiProvider]: provider,
        [ATTR.genAiSystem]: provider,
        [ATTR.genAiRequestModel]: model,
        ...(request.maxTokens === undefined ? {} : { [ATTR.genAiMaxTokens]: request.maxTokens }),
        ...(request.temperature === undefined ? {} : { [ATTR.genAiTemperature]: request.temperature }),
      },
    },
    (span) => streamModel(request, span),
  );
}

/** The call itself, counted in the model metrics and described on `span` (usage, time to first token). */
async function streamModel(request: ModelCallRequest, span: Span): Promise<ModelReply> {
  const labels = { provider: request.provider.name, model: request.provider.model };
  const metrics = talonMetrics();
  const started = performance.now();
  let firstTokenAt: number | undefined;
  const firstToken = () => {
    if (firstTokenAt !== undefined) return;
    firstTokenAt = performance.now();
    const seconds = (firstTokenAt - started) / 1000;
    metrics.modelTimeToFirstToken.observe(labels, seconds);
    span.setAttribute(ATTR.genAiTimeToFirstToken, seconds);
  };
  try {
    const reply = await collectModelStream(request, firstToken);
    metrics.modelCalls.inc({ ...labels, code: 'ok' });
    if (reply.usage !== undefined) {
      metrics.modelTokens.inc({ ...labels, type: 'input' }, reply.usage.inputTokens);
      metrics.modelTokens.inc({ ...labels, type: 'output' }, reply.usage.outputTokens);
      span.setAttribute(ATTR.genAiInputTokens, reply.usage.inputTokens);
      span.setAttribute(ATTR.genAiOutputTokens, reply.usage.outputTokens);
    }
    return reply;
  } catch (error) {
    const code = (error as { code?: unknown })?.code;
    metrics.modelCalls.inc({ ...labels, code: typeof code === 'string' ? code : 'INTERNAL' });
    throw error;
  } finally {
    metrics.modelDuration.observe(labels, (performance.now() - started) / 1000);
  }
}

async function collectModelStream(request: ModelCallRequest, firstToken: () => void): Promise<ModelReply> {
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
        firstToken();
        text += event.text;
        request.onText(event.text);
        break;
      case 'tool_call':
        firstToken();
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
