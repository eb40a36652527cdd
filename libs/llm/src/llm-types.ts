/**
 * Provider-neutral types for talking to a language model. Every provider translates these to and from
 * its own protocol, so the agent loop never sees an OpenAI or Anthropic shape.
 */

/** Instructions for the model. Anthropic receives all system messages joined as its `system` parameter. */
export interface LlmSystemMessage {
  readonly role: 'system';
  readonly content: string;
}

/** What the person (or the orchestrator on their behalf) said. */
export interface LlmUserMessage {
  readonly role: 'user';
  readonly content: string;
}

/** A tool call the model made. `id` is the provider's call id and must be sent back unchanged. */
export interface LlmToolCall {
  readonly id: string;
  readonly name: string;
  /** The parsed JSON arguments (always an object). */
  readonly arguments: Readonly<Record<string, unknown>>;
}

/** A previous model reply: its text and the tool calls it made, replayed as history. */
export interface LlmAssistantMessage {
  readonly role: 'assistant';
  readonly content: string;
  readonly toolCalls?: readonly LlmToolCall[];
}

/** The result of one tool call, matched to the call by `toolCallId`. */
export interface LlmToolResultMessage {
  readonly role: 'tool';
  readonly toolCallId: string;
  /** The tool's name; informative only (neither protocol requires it on the result). */
  readonly toolName?: string;
  readonly content: string;
  /**
   * Images of the result (base64), sent as image input by providers that take images in tool results
   * (Anthropic); others read only `content`, which names each image with a placeholder.
   */
  readonly images?: ReadonlyArray<{ readonly mimeType: string; readonly data: string }>;
  /** Marks a failed call (Anthropic's `is_error`; OpenAI has no flag, so say so in `content`). */
  readonly isError?: boolean;
}

/** One message of a conversation. */
export type LlmMessage = LlmSystemMessage | LlmUserMessage | LlmAssistantMessage | LlmToolResultMessage;

/** A tool as the model sees it. `name` must match `^[a-zA-Z0-9_-]{1,64}$` for both protocols. */
export interface LlmToolDefinition {
  readonly name: string;
  readonly description: string;
  /** JSON Schema of the arguments object. */
  readonly parameters: Readonly<Record<string, unknown>>;
}

/** Whether the model may, must, or must not call tools. */
export const LLM_TOOL_CHOICES = { auto: 'auto', required: 'required', none: 'none' } as const;
/** One of {@link LLM_TOOL_CHOICES}. */
export type LlmToolChoice = (typeof LLM_TOOL_CHOICES)[keyof typeof LLM_TOOL_CHOICES];

/** One call to the model. */
export interface LlmRequest {
  readonly messages: readonly LlmMessage[];
  readonly tools?: readonly LlmToolDefinition[];
  /** Defaults to `auto` when tools are given. */
  readonly toolChoice?: LlmToolChoice;
  /** Caps the reply length; the provider's configured default applies when absent. */
  readonly maxTokens?: number;
  /** Sent to OpenAI-compatible servers only: the Messages API of the SDK in use has no such parameter. */
  readonly temperature?: number;
}

/** Tokens billed for one call. */
export interface LlmUsage {
  readonly inputTokens: number;
  readonly outputTokens: number;
}

/** Why the model stopped, normalised across protocols. */
export const LLM_STOP_REASONS = {
  /** A final answer. */
  endTurn: 'end_turn',
  /** The model wants tool results before it goes on. */
  toolCalls: 'tool_calls',
  /** The reply hit the token cap. */
  maxTokens: 'max_tokens',
  /** The provider refused or filtered the content. */
  contentFilter: 'content_filter',
  /** A stop sequence or anything else the protocol reports. */
  other: 'other',
} as const;
/** One of {@link LLM_STOP_REASONS}. */
export type LlmStopReason = (typeof LLM_STOP_REASONS)[keyof typeof LLM_STOP_REASONS];

/** A piece of reply text, in order. */
export interface LlmTextDeltaEvent {
  readonly type: 'text_delta';
  readonly text: string;
}

/** A complete tool call, emitted once its arguments have fully arrived and parsed. */
export interface LlmToolCallEvent {
  readonly type: 'tool_call';
  readonly toolCall: LlmToolCall;
}

/**
 * A tool call whose arguments were not a JSON object. The call still has an id the model expects an
 * answer for: reply with an error tool result (and replay the call with `{}` arguments in history).
 */
export interface LlmMalformedToolCallEvent {
  readonly type: 'tool_call_malformed';
  readonly id: string;
  readonly name: string;
  readonly rawArguments: string;
  /** What was wrong, phrased so it can be sent back to the model. */
  readonly message: string;
}

/** Token usage of the call, emitted once before `done` when the server reports it. */
export interface LlmUsageEvent {
  readonly type: 'usage';
  readonly usage: LlmUsage;
}

/** The last event of every successful stream. */
export interface LlmDoneEvent {
  readonly type: 'done';
  readonly stopReason: LlmStopReason;
}

/** Everything a provider stream yields. */
export type LlmStreamEvent =
  LlmTextDeltaEvent | LlmToolCallEvent | LlmMalformedToolCallEvent | LlmUsageEvent | LlmDoneEvent;
