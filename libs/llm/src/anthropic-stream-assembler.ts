import type { RawMessageStreamEvent } from '@anthropic-ai/sdk/resources/messages';
import { LLM_STOP_REASONS, type LlmStopReason, type LlmStreamEvent } from './llm-types.js';
import { parseToolCallArguments } from './tool-call-arguments.js';

interface PendingToolUse {
  id: string;
  name: string;
  rawArguments: string;
  /** The `input` of `content_block_start`; used only if no `input_json_delta` follows. */
  startInput: unknown;
}

const STOP_REASON_BY_ANTHROPIC: Readonly<Record<string, LlmStopReason>> = {
  end_turn: LLM_STOP_REASONS.endTurn,
  tool_use: LLM_STOP_REASONS.toolCalls,
  max_tokens: LLM_STOP_REASONS.maxTokens,
  model_context_window_exceeded: LLM_STOP_REASONS.maxTokens,
  refusal: LLM_STOP_REASONS.contentFilter,
};

/**
 * Turns Messages API stream events into neutral events: `text_delta` passes through, a `tool_use`
 * block is emitted at its `content_block_stop` once its `input_json_delta` fragments parse, usage
 * combines `message_start` (input) with the last `message_delta` (cumulative output), then `done`.
 */
export class AnthropicStreamAssembler {
  private readonly blocks = new Map<number, PendingToolUse>();
  private stopReason: string | null = null;
  private inputTokens: number | undefined;
  private outputTokens: number | undefined;
  private sawMessageStop = false;

  /** @param reportProblem builds the error thrown when the stream breaks the protocol. */
  constructor(private readonly reportProblem: (problem: string) => Error) {}

  /** Consumes one event and returns the events it completes. */
  accept(event: RawMessageStreamEvent): LlmStreamEvent[] {
    switch (event.type) {
      case 'message_start': {
        const usage = event.message.usage;
        this.inputTokens =
          (usage.input_tokens ?? 0) +
          (usage.cache_creation_input_tokens ?? 0) +
          (usage.cache_read_input_tokens ?? 0);
        this.outputTokens = usage.output_tokens ?? 0;
        return [];
      }
      case 'content_block_start': {
        const block = event.content_block;
        if (block.type === 'tool_use') {
          if (!block.id || !block.name)
            throw this.reportProblem(`tool_use block ${event.index} lacks an id or a name`);
          this.blocks.set(event.index, {
            id: block.id,
            name: block.name,
            rawArguments: '',
            startInput: block.input,
          });
        } else if (block.type === 'text' && block.text !== '') {
          return [{ type: 'text_delta', text: block.text }];
        }
        return [];
      }
      case 'content_block_delta': {
        const delta = event.delta;
        if (delta.type === 'text_delta')
          return delta.text === '' ? [] : [{ type: 'text_delta', text: delta.text }];
        if (delta.type === 'input_json_delta') {
          const block = this.blocks.get(event.index);
          if (block === undefined)
            throw this.reportProblem(
              `input_json_delta for block ${event.index}, which is not a tool_use block`,
            );
          block.rawArguments += delta.partial_json;
        }
        return [];
      }
      case 'content_block_stop':
        return this.completeToolUse(event.index);
      case 'message_delta': {
        if (event.delta.stop_reason) this.stopReason = event.delta.stop_reason;
        const usage = event.usage;
        if (typeof usage?.output_tokens === 'number') this.outputTokens = usage.output_tokens;
        if (typeof usage?.input_tokens === 'number') {
          this.inputTokens =
            usage.input_tokens +
            (usage.cache_creation_input_tokens ?? 0) +
            (usage.cache_read_input_tokens ?? 0);
        }
        return [];
      }
      case 'message_stop':
        this.sawMessageStop = true;
        return [];
      default:
        return [];
    }
  }

  /** Called when the stream has ended: usage and `done`. */
  finish(): LlmStreamEvent[] {
    if (!this.sawMessageStop) throw this.reportProblem('the stream ended before message_stop');
    const events: LlmStreamEvent[] = [];
    if (this.inputTokens !== undefined || this.outputTokens !== undefined) {
      events.push({
        type: 'usage',
        usage: { inputTokens: this.inputTokens ?? 0, outputTokens: this.outputTokens ?? 0 },
      });
    }
    events.push({
      type: 'done',
      stopReason: STOP_REASON_BY_ANTHROPIC[this.stopReason ?? ''] ?? LLM_STOP_REASONS.other,
    });
    return events;
  }

  private completeToolUse(index: number): LlmStreamEvent[] {
    const block = this.blocks.get(index);
    if (block === undefined) return [];
    this.blocks.delete(index);
    const raw =
      block.rawArguments === '' && isNonEmptyObject(block.startInput)
        ? JSON.stringify(block.startInput)
        : block.rawArguments;
    const parsed = parseToolCallArguments(block.name, raw);
    return [
      parsed.ok
        ? { type: 'tool_call', toolCall: { id: block.id, name: block.name, arguments: parsed.value } }
        : {
            type: 'tool_call_malformed',
            id: block.id,
            name: block.name,
            rawArguments: raw,
            message: parsed.message,
          },
    ];
  }
}

function isNonEmptyObject(value: unknown): boolean {
  return typeof value === 'object' && value !== null && Object.keys(value).length > 0;
}
