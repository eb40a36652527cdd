import type { LlmRequest, LlmStreamEvent } from './llm-types.js';

/** Per-call options of {@link LlmProvider.stream}. */
export interface LlmCallOptions {
  /** Aborting stops the request (and any retry wait); the stream then throws `signal.reason`. */
  readonly signal?: AbortSignal;
}

/**
 * A language model behind one interface. `stream` yields text deltas as they arrive, each tool call
 * once complete, usage, and finally `done`; it throws a typed `LlmError` on failure.
 */
export interface LlmProvider {
  /** The protocol family, e.g. `openai`, `anthropic`, `scripted`. */
  readonly name: string;
  readonly model: string;
  stream(request: LlmRequest, options?: LlmCallOptions): AsyncIterable<LlmStreamEvent>;
}
