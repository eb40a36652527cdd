import type { ChatEvent } from '@talon/contracts';

/** What a transport needs to send one call. */
export interface TransportCall {
  method: string;
  payload: unknown;
  timeoutMs: number;
  signal?: AbortSignal;
  callId?: string;
}

/** Where a chat stream starts: a new message, or after an event of a turn already running. */
export type ChatStreamStart = { message: string } | { lastEventId: string | undefined };

/** What a transport needs to stream the events of a session's turn. */
export interface TransportStream {
  sessionId: string;
  start: ChatStreamStart;
  idleMs: number;
  signal?: AbortSignal;
}

/**
 * One way to reach the API (NATS, HTTP). A transport moves bytes and envelopes; the client above it
 * checks envelopes against the contract, retries and types the errors.
 */
export interface TalonTransport {
  /** Sends one call and resolves the parsed reply body (an envelope, unchecked); throws TalonError when nothing came back. */
  call(call: TransportCall): Promise<unknown>;
  /**
   * The events of one turn, in order, ending with `result` (a new message) or `turn_finished` (a resume);
   * throws TalonStreamInterruptedError when the stream ends before that.
   */
  stream(stream: TransportStream): AsyncIterable<ChatEvent>;
  close(): Promise<void>;
}
