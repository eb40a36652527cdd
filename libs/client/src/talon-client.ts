import { Ajv, type ValidateFunction } from 'ajv';
import {
  API_METHOD_NAMES,
  API_METHODS,
  TYPED_CHAT_EVENT_SCHEMAS,
  type ApiMethodName,
  type ApiReplyOf,
  type ApiRequestOf,
  type ChatEvent,
  type ErrorCode,
  type TypedChatEvent,
} from '@talon/contracts';
import { HttpTransport } from './http-transport.js';
import { NatsTransport } from './nats-transport.js';
import { isRetryableCode, ReplyChecker } from './reply-checker.js';
import { buildApiTree, type TalonApi } from './talon-api.js';
import {
  attemptTimeoutMs,
  resolveClientOptions,
  type CallOptions,
  type TalonClientOptions,
} from './talon-client-options.js';
import { TalonAbortedError } from './talon-aborted-error.js';
import { TalonError } from './talon-error.js';
import { TalonProtocolError } from './talon-protocol-error.js';
import type { ChatStreamStart, TalonTransport } from './talon-transport.js';

/** Options of a chat stream. */
export interface ChatStreamOptions {
  /** Ends the stream; the iterator throws TalonAbortedError. The turn itself goes on server-side. */
  signal?: AbortSignal;
}

/** The chat area: `send` from the contract, plus the turn's events as an async iterator. */
export interface TalonChat {
  /**
   * Sends `message` and yields the turn's events as they happen (text deltas, tool calls, approvals
   * needed, …), ending with `result`. A fatal error ends it with a TalonError; a cut connection with a
   * TalonStreamInterruptedError whose `lastEventId` {@link TalonChat.resume} continues from.
   */
  stream(sessionId: string, message: string, options?: ChatStreamOptions): AsyncIterable<TypedChatEvent>;
  /** The events of the session's running turn after `lastEventId`, ending with `turn_finished`. */
  resume(
    sessionId: string,
    lastEventId: string | undefined,
    options?: ChatStreamOptions,
  ): AsyncIterable<TypedChatEvent>;
}

/** A client of the Talon API: every contract method, namespaced, plus chat streaming. */
export type TalonClient = Omit<TalonApi, 'chat'> & {
  chat: TalonApi['chat'] & TalonChat;
  /** Any contract method by name. */
  call<M extends ApiMethodName>(
    method: M,
    request: ApiRequestOf<M>,
    options?: CallOptions,
  ): Promise<ApiReplyOf<M>>;
  /** A method this client's contract does not list (a newer server's): the reply's data, unchecked. */
  callUnlisted(method: string, payload?: unknown, options?: CallOptions): Promise<unknown>;
  /** Closes the connection if the client opened it. */
  close(): Promise<void>;
};

function tolerantEventSchema(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(tolerantEventSchema);
  if (typeof schema !== 'object' || schema === null) return schema;
  return Object.fromEntries(
    Object.entries(schema)
      .filter(([key, value]) => !(key === 'additionalProperties' && value === false))
      .map(([key, value]) => [key, tolerantEventSchema(value)]),
  );
}

const sleep = (ms: number, signal?: AbortSignal) =>
  new Promise<void>((resolve, reject) => {
    const timer = setTimeout(resolve, ms);
    signal?.addEventListener(
      'abort',
      () => {
        clearTimeout(timer);
        reject(new TalonAbortedError('The retry wait', signal.reason));
      },
      { once: true },
    );
  });

/**
 * Creates a client over NATS (`{ nats }`) or HTTP (`{ http }`) with a token. Every method of the
 * contract's table is a typed function (`client.tools.call(...)`); replies are checked against the
 * contract; errors are {@link TalonError}s with `code` and `retryable`; idempotent methods are retried
 * after retryable errors, their first attempt cut short so a lost request does not cost the whole timeout.
 */
export function createTalonClient(options: TalonClientOptions): TalonClient {
  const resolved = resolveClientOptions(options);
  const transport: TalonTransport = options.nats
    ? new NatsTransport(options.nats, resolved.token)
    : new HttpTransport(options.http!, resolved.token);
  const checker = new ReplyChecker(resolved.validateReplies);
  const eventAjv = new Ajv({ strict: false });
  const eventValidators = new Map<string, ValidateFunction>();

  async function call(method: string, payload: unknown, callOptions: CallOptions = {}): Promise<unknown> {
    const contract = Object.hasOwn(API_METHODS, method) ? API_METHODS[method as ApiMethodName] : undefined;
    const retries = contract?.idempotent ? (callOptions.retries ?? resolved.retries) : 0;
    const timeoutMs = callOptions.timeoutMs ?? resolved.timeoutMs;
    const firstAttemptMs = callOptions.firstAttemptTimeoutMs ?? resolved.firstAttemptTimeoutMs;
    for (let attempt = 0; ; attempt++) {
      try {
        const body = await transport.call({
          method,
          payload,
          timeoutMs: attemptTimeoutMs(attempt, attempt < retries, timeoutMs, firstAttemptMs, payload),
          ...(callOptions.signal ? { signal: callOptions.signal } : {}),
          ...(callOptions.callId ? { callId: callOptions.callId } : {}),
        });
        return checker.data(method, body, callOptions.callId);
      } catch (error) {
        if (!TalonError.isInstance(error) || !error.retryable || attempt >= retries) throw error;
        if (callOptions.signal?.aborted) throw error;
        const hinted = (error.details as { retryAfterMs?: unknown } | undefined)?.retryAfterMs;
        const wait = typeof hinted === 'number' ? hinted : resolved.retryDelayMs * 2 ** attempt;
        await sleep(wait, callOptions.signal);
      }
    }
  }

  function checkEvent(event: ChatEvent): TypedChatEvent | undefined {
    const schema = TYPED_CHAT_EVENT_SCHEMAS[event.type as keyof typeof TYPED_CHAT_EVENT_SCHEMAS];
    if (!schema) return undefined; // a type this client does not know: skipped
    if (event.type === 'error' && event.fatal === true) {
      const wire = (event.error ?? event) as {
        code?: unknown;
        message?: unknown;
        details?: unknown;
        retryable?: unknown;
      };
      if (typeof wire.code !== 'string' || typeof wire.message !== 'string')
        throw new TalonProtocolError('chat stream', 'a fatal error event without code and message');
      throw new TalonError(wire.code as ErrorCode, wire.message, {
        details: wire.details,
        retryable: typeof wire.retryable === 'boolean' ? wire.retryable : isRetryableCode(wire.code),
        method: 'chat.send',
      });
    }
    const type = event.type;
    if (resolved.validateReplies) {
      let validate = eventValidators.get(type);
      if (!validate) {
        validate = eventAjv.compile(tolerantEventSchema(schema) as object);
        eventValidators.set(type, validate);
      }
      if (!validate(event))
        throw new TalonProtocolError(
          `chat stream (${type} event)`,
          (validate.errors ?? []).map((e) => `${e.instancePath || 'event'} ${e.message}`).join('; '),
        );
    }
    return event as TypedChatEvent;
  }

  async function* stream(
    sessionId: string,
    start: ChatStreamStart,
    streamOptions: ChatStreamOptions = {},
  ): AsyncGenerator<TypedChatEvent> {
    for await (const event of transport.stream({
      sessionId,
      start,
      idleMs: resolved.streamIdleMs,
      ...(streamOptions.signal ? { signal: streamOptions.signal } : {}),
    })) {
      const typed = checkEvent(event);
      if (typed) yield typed;
    }
  }

  const api = buildApiTree(API_METHOD_NAMES, call) as Record<string, Record<string, unknown>>;
  api.chat = {
    ...api.chat,
    stream: (sessionId: string, message: string, streamOptions?: ChatStreamOptions) =>
      stream(sessionId, { message }, streamOptions),
    resume: (sessionId: string, lastEventId: string | undefined, streamOptions?: ChatStreamOptions) =>
      stream(sessionId, { lastEventId }, streamOptions),
  };
  return Object.assign(api, {
    call: (method: string, request: unknown, callOptions?: CallOptions) =>
      call(method, request ?? {}, callOptions),
    callUnlisted: (method: string, payload: unknown = {}, callOptions?: CallOptions) =>
      call(method, payload, callOptions),
    close: () => transport.close(),
  }) as unknown as TalonClient;
}
