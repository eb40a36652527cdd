/**
 * Shared plumbing of the protocol test servers (`openai-compatible-server.ts`,
 * `anthropic-messages-server.ts`): a real `node:http` server on 127.0.0.1 and a random port that
 * answers each streaming request with the next scripted reply, records every request, can fail the
 * next N requests with an error status, and notes whether each response finished or was cut off.
 */
import {
  createServer,
  type IncomingHttpHeaders,
  type IncomingMessage,
  type Server,
  type ServerResponse,
} from 'node:http';
import type { AddressInfo } from 'node:net';

/** A tool call the test server streams, its arguments split across several frames. */
export interface LlmTestToolCall {
  /** Default `call_<n>` (OpenAI) or `toolu_<n>` (Anthropic), numbered per server. */
  id?: string;
  name: string;
  /** An object is serialised; a string is sent verbatim (use it for malformed JSON). */
  arguments: Record<string, unknown> | string;
}

/** One scripted reply. */
export interface LlmTestReply {
  /** Text deltas: a string is one delta, an array is one delta per element. */
  text?: string | readonly string[];
  toolCalls?: readonly LlmTestToolCall[];
  /** Pieces each tool call's argument JSON is cut into. Default 3. */
  argumentChunks?: number;
  /** Default: input = characters of the request body / 40, output = deltas sent. */
  usage?: { inputTokens: number; outputTokens: number };
  /** The protocol's own stop/finish reason. Default from the content (tool calls or end of turn). */
  stopReason?: string;
  /** Wait between frames. Default 0. */
  frameDelayMs?: number;
  /** Send this many frames, then keep the connection open without writing (for abort tests). */
  stallAfterFrames?: number;
  /** Send this many frames, then destroy the socket (a broken stream). */
  dropAfterFrames?: number;
  /** Send this many frames, then the protocol's in-stream error event. */
  errorAfterFrames?: number;
}

/** A reply computed from the request body (for conversations that depend on tool results). */
export type LlmTestReplyFactory = (body: Record<string, unknown>) => LlmTestReply;

/** An HTTP error answer instead of a stream. */
export interface LlmTestFailure {
  status: number;
  /** Extra headers, e.g. `{ 'retry-after': '1' }`. */
  headers?: Record<string, string>;
  message?: string;
}

/** A request the server received. */
export interface RecordedLlmRequest {
  readonly method: string;
  readonly path: string;
  readonly headers: IncomingHttpHeaders;
  /** Parsed JSON body (`undefined` if it was not JSON). */
  readonly body: Record<string, unknown>;
  /** Settles when the response ends (`completed`) or the client goes away first (`aborted`). */
  readonly finished: Promise<'completed' | 'aborted'>;
}

/** What a protocol contributes to the shared server. */
export interface LlmTestProtocol {
  readonly path: string;
  /** Base URL the SDK expects for a server at `origin`. */
  baseURL(origin: string): string;
  /** Whether the request carries the expected key (`undefined` key: accept anything). */
  authorized(headers: IncomingHttpHeaders, apiKey: string | undefined): boolean;
  /** A reason to refuse the body with 400, as the real API would, or `undefined`. */
  validate(body: Record<string, unknown>): string | undefined;
  errorBody(status: number, message: string): unknown;
  /** The SSE frames of one reply, each a complete `…\n\n` block. */
  frames(reply: LlmTestReply, body: Record<string, unknown>, nextId: (prefix: string) => string): string[];
  /** The in-stream error frame. */
  streamErrorFrame(message: string): string;
}

/** Options of a test server. */
export interface LlmTestServerOptions {
  /** When set, requests without this key get 401. */
  apiKey?: string;
}

/** A running protocol test server. */
export interface LlmTestServer {
  /** The base URL to give the provider (`http://127.0.0.1:<port>/v1` for OpenAI, without `/v1` for Anthropic). */
  readonly baseURL: string;
  readonly requests: readonly RecordedLlmRequest[];
  /** Queues replies, answered in order. */
  enqueue(...replies: (LlmTestReply | LlmTestReplyFactory)[]): void;
  /** Answers the next `count` requests with `failure` before any queued reply is used. */
  failNext(count: number, failure: LlmTestFailure): void;
  /** Replies still queued. */
  pendingReplies(): number;
  close(): Promise<void>;
}

/** Starts a test server that speaks `protocol`. */
export async function startLlmTestServer(
  protocol: LlmTestProtocol,
  options: LlmTestServerOptions = {},
): Promise<LlmTestServer> {
  const requests: RecordedLlmRequest[] = [];
  const replies: (LlmTestReply | LlmTestReplyFactory)[] = [];
  const failures: { remaining: number; failure: LlmTestFailure }[] = [];
  let counter = 0;
  const nextId = (prefix: string) => `${prefix}${String(++counter).padStart(4, '0')}`;

  const handle = async (request: IncomingMessage, response: ServerResponse) => {
    const raw = await readBody(request);
    const body = parseJsonObject(raw);
    let settle: (value: 'completed' | 'aborted') => void = () => undefined;
    const finished = new Promise<'completed' | 'aborted'>((resolve) => (settle = resolve));
    response.on('close', () => settle(response.writableFinished ? 'completed' : 'aborted'));
    requests.push({
      method: request.method ?? '',
      path: request.url ?? '',
      headers: request.headers,
      body: body ?? {},
      finished,
    });

    const sendError = (status: number, message: string, headers: Record<string, string> = {}) => {
      response.writeHead(status, { 'content-type': 'application/json', ...headers });
      response.end(JSON.stringify(protocol.errorBody(status, message)));
    };
    if (request.method !== 'POST' || (request.url ?? '').split('?')[0] !== protocol.path) {
      return sendError(404, `No route ${request.method} ${request.url} on this test server`);
    }
    if (!protocol.authorized(request.headers, options.apiKey)) return sendError(401, 'invalid api key');
    const failure = failures[0];
    if (failure !== undefined) {
      if (--failure.remaining <= 0) failures.shift();
      return sendError(
        failure.failure.status,
        failure.failure.message ?? `scripted HTTP ${failure.failure.status}`,
        failure.failure.headers,
      );
    }
    if (body === undefined) return sendError(400, 'the request body is not a JSON object');
    const problem = protocol.validate(body);
    if (problem !== undefined) return sendError(400, problem);
    if (body.stream !== true)
      return sendError(400, 'this test server answers streaming requests only (stream: true)');
    const next = replies.shift();
    if (next === undefined) return sendError(400, 'the test server has no scripted reply left; enqueue one');
    const reply = typeof next === 'function' ? next(body) : next;
    await streamFrames(response, protocol.frames(reply, body, nextId), reply, protocol);
  };

  const server: Server = createServer((request, response) => {
    handle(request, response).catch((error: unknown) => {
      if (!response.headersSent) response.writeHead(500, { 'content-type': 'application/json' });
      response.end(JSON.stringify(protocol.errorBody(500, `test server bug: ${String(error)}`)));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;

  return {
    baseURL: protocol.baseURL(`http://127.0.0.1:${port}`),
    requests,
    enqueue: (...more) => void replies.push(...more),
    failNext: (count, failure) => void failures.push({ remaining: count, failure }),
    pendingReplies: () => replies.length,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

async function streamFrames(
  response: ServerResponse,
  frames: string[],
  reply: LlmTestReply,
  protocol: LlmTestProtocol,
): Promise<void> {
  response.writeHead(200, {
    'content-type': 'text/event-stream',
    'cache-control': 'no-cache',
    connection: 'keep-alive',
  });
  for (const [index, frame] of frames.entries()) {
    if (index === reply.stallAfterFrames) return; // leave the response open: the client must give up
    if (index === reply.dropAfterFrames) return void response.socket?.destroy();
    if (index === reply.errorAfterFrames)
      return void response.end(protocol.streamErrorFrame('Overloaded (scripted)'));
    if (response.destroyed) return;
    response.write(frame);
    if (reply.frameDelayMs) await new Promise((resolve) => setTimeout(resolve, reply.frameDelayMs));
  }
  response.end();
}

function readBody(request: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    request.on('error', reject);
  });
}

function parseJsonObject(raw: string): Record<string, unknown> | undefined {
  try {
    const value: unknown = JSON.parse(raw);
    return typeof value === 'object' && value !== null && !Array.isArray(value)
      ? (value as Record<string, unknown>)
      : undefined;
  } catch {
    return undefined;
  }
}

/** Cuts `text` into `pieces` nearly equal parts (at least one, never empty unless `text` is). */
export function splitIntoPieces(text: string, pieces: number): string[] {
  if (text.length === 0) return [''];
  const count = Math.max(1, Math.min(pieces, text.length));
  const size = Math.ceil(text.length / count);
  const parts: string[] = [];
  for (let start = 0; start < text.length; start += size) parts.push(text.slice(start, start + size));
  return parts;
}

/** The text deltas of a reply as a list. */
export function textDeltas(reply: LlmTestReply): string[] {
  if (reply.text === undefined) return [];
  return typeof reply.text === 'string' ? [reply.text] : [...reply.text];
}
