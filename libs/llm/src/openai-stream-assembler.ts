import { randomUUID } from 'node:crypto';
import type { ChatCompletionChunk } from 'openai/resources/chat/completions';
import { LLM_STOP_REASONS, type LlmStopReason, type LlmStreamEvent, type LlmUsage } from './llm-types.js';
import { parseToolCallArguments } from './tool-call-arguments.js';

interface PendingToolCall {
  id: string;
  /** False while the id is one we made up because the server sent none. */
  idFromServer: boolean;
  name: string;
  rawArguments: string;
}

const STOP_REASON_BY_FINISH_REASON: Readonly<Record<string, LlmStopReason>> = {
  stop: LLM_STOP_REASONS.endTurn,
  length: LLM_STOP_REASONS.maxTokens,
  tool_calls: LLM_STOP_REASONS.toolCalls,
  function_call: LLM_STOP_REASONS.toolCalls,
  content_filter: LLM_STOP_REASONS.contentFilter,
};

/**
 * Turns chat-completion chunks into neutral events. Text passes through at once; tool calls arrive as
 * fragments keyed by `index` (id and name first, then pieces of the argument JSON) and are emitted
 * whole at the end, followed by usage (the trailing chunk with empty `choices`) and `done`.
 */
export class OpenAiStreamAssembler {
  private readonly calls: PendingToolCall[] = [];
  private readonly callByIndex = new Map<number, PendingToolCall>();
  private finishReason: string | undefined;
  private usage: LlmUsage | undefined;

  /** @param reportProblem builds the error thrown when the stream breaks the protocol. */
  constructor(private readonly reportProblem: (problem: string) => Error) {}

  /** Consumes one chunk and returns the events it completes (text deltas only). */
  accept(chunk: ChatCompletionChunk): LlmStreamEvent[] {
    if (chunk.usage) {
      this.usage = {
        inputTokens: chunk.usage.prompt_tokens ?? 0,
        outputTokens: chunk.usage.completion_tokens ?? 0,
      };
    }
    const choice = chunk.choices?.find((candidate) => candidate.index === 0) ?? chunk.choices?.[0];
    if (choice === undefined) return [];
    if (choice.finish_reason) this.finishReason = choice.finish_reason;
    const events: LlmStreamEvent[] = [];
    const delta = choice.delta ?? {};
    if (typeof delta.content === 'string' && delta.content !== '')
      events.push({ type: 'text_delta', text: delta.content });
    if (typeof delta.refusal === 'string' && delta.refusal !== '')
      events.push({ type: 'text_delta', text: delta.refusal });
    for (const fragment of delta.tool_calls ?? []) this.acceptToolCallFragment(fragment);
    return events;
  }

  /** Called when the stream has ended: the tool calls, usage and `done`. */
  finish(): LlmStreamEvent[] {
    const events: LlmStreamEvent[] = [];
    for (const call of this.calls) {
      if (call.name === '') throw this.reportProblem(`tool call ${call.id} never received a function name`);
      const parsed = parseToolCallArguments(call.name, call.rawArguments);
      events.push(
        parsed.ok
          ? { type: 'tool_call', toolCall: { id: call.id, name: call.name, arguments: parsed.value } }
          : {
              type: 'tool_call_malformed',
              id: call.id,
              name: call.name,
              rawArguments: call.rawArguments,
              message: parsed.message,
            },
      );
    }
    if (this.usage) events.push({ type: 'usage', usage: this.usage });
    let stopReason = STOP_REASON_BY_FINISH_REASON[this.finishReason ?? ''] ?? LLM_STOP_REASONS.other;
    // Some local servers finish with "stop" even when they emitted tool calls.
    if (this.calls.length > 0 && stopReason === LLM_STOP_REASONS.endTurn)
      stopReason = LLM_STOP_REASONS.toolCalls;
    events.push({ type: 'done', stopReason });
    return events;
  }

  private acceptToolCallFragment(fragment: ChatCompletionChunk.Choice.Delta.ToolCall): void {
    // Without an index, an id or a name starts a call and anything else continues the last one.
    const startsCall = Boolean(fragment.id || fragment.function?.name);
    const index =
      typeof fragment.index === 'number'
        ? fragment.index
        : startsCall
          ? this.calls.length
          : Math.max(0, this.calls.length - 1);
    let call = this.callByIndex.get(index);
    const id = fragment.id || undefined;
    // A few servers give every parallel call index 0; another server-given id at a known index is a new call.
    if (call === undefined || (id !== undefined && call.idFromServer && call.id !== id)) {
      call = {
        id: id ?? `call_${randomUUID().replaceAll('-', '').slice(0, 24)}`,
        idFromServer: id !== undefined,
        name: '',
        rawArguments: '',
      };
      this.calls.push(call);
      this.callByIndex.set(index, call);
    } else if (id !== undefined && !call.idFromServer) {
      call.id = id;
      call.idFromServer = true;
    }
    const name = fragment.function?.name;
    if (name && call.name === '') call.name = name;
    const argumentsFragment = fragment.function?.arguments;
    if (typeof argumentsFragment === 'string') call.rawArguments += argumentsFragment;
  }
}
