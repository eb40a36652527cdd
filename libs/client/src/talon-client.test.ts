import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { API_METHOD_NAMES, API_METHODS } from '@talon/contracts';
import { createTalonClient, TalonError, TalonProtocolError, TalonStreamInterruptedError } from './index.js';

type Handler = (request: IncomingMessage, response: ServerResponse, body: string) => void;

/** A real HTTP server whose answer each test sets, to drive the client's envelope handling. */
describe('createTalonClient', () => {
  let server: Server;
  let url: string;
  let handler: Handler;
  let calls: Array<{ path: string; body: string; authorization?: string }>;

  beforeAll(async () => {
    server = createServer((request, response) => {
      let body = '';
      request.on('data', (chunk: Buffer) => (body += chunk.toString()));
      request.on('end', () => {
        calls.push({ path: request.url ?? '', body, authorization: request.headers.authorization });
        handler(request, response, body);
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  const reply = (status: number, body: unknown) => {
    handler = (_request, response) => {
      response.writeHead(status, { 'content-type': 'application/json' });
      response.end(typeof body === 'string' ? body : JSON.stringify(body));
    };
  };
  const client = (extra: object = {}) => {
    calls = [];
    return createTalonClient({ http: url, token: 'tok', retryDelayMs: 1, ...extra });
  };

  it('has a function for every method of the contract table, at the path its name gives', () => {
    const api = client() as unknown as Record<string, unknown>;
    const missing = API_METHOD_NAMES.filter((name) => {
      const leaf = name
        .split('.')
        .reduce<unknown>((node, part) => (node as Record<string, unknown>)?.[part], api);
      return typeof leaf !== 'function';
    });
    expect(missing).toEqual([]);
    expect(API_METHOD_NAMES.length).toBe(Object.keys(API_METHODS).length);
  });

  it('posts to /v1/rpc/<method> with the bearer token and returns the data', async () => {
    reply(200, { ok: true, data: { sessions: [], addedByANewerServer: 1 } });
    const api = client();
    const data = await api.sessions.list({ limit: 5 });
    expect(data.sessions).toEqual([]);
    expect(calls).toEqual([
      { path: '/v1/rpc/sessions.list', body: '{"limit":5}', authorization: 'Bearer tok' },
    ]);
  });

  it('raises the wire error with its code, details and retryable flag', async () => {
    reply(404, { ok: false, error: { code: 'NOT_FOUND', message: 'No session x.', details: { id: 'x' } } });
    const error = await client()
      .sessions.get({ id: '00000000-0000-4000-8000-000000000000' })
      .catch((e: unknown) => e);
    expect(TalonError.isInstance(error)).toBe(true);
    expect(error).toMatchObject({
      code: 'NOT_FOUND',
      retryable: false,
      details: { id: 'x' },
      method: 'sessions.get',
    });
  });

  it('retries an idempotent method after a retryable error, and never a non-idempotent one', async () => {
    let count = 0;
    handler = (_request, response) => {
      count++;
      response.writeHead(count < 3 ? 503 : 200, { 'content-type': 'application/json' });
      response.end(
        JSON.stringify(
          count < 3
            ? { ok: false, error: { code: 'UNAVAILABLE', message: 'draining', retryable: true } }
            : { ok: true, data: { sessions: [] } },
        ),
      );
    };
    const api = client();
    await expect(api.sessions.list({})).resolves.toEqual({ sessions: [] });
    expect(count).toBe(3);
    count = 0;
    await expect(api.sessions.create({})).rejects.toMatchObject({ code: 'UNAVAILABLE', retryable: true });
    expect(count).toBe(1);
  });

  it('cuts the first attempt of an idempotent call short and gives the retry the whole timeout', async () => {
    // The first request is lost (never answered, like one routed to a server that just died); the next is
    // answered after 300 ms, longer than the first attempt was allowed.
    let count = 0;
    handler = (_request, response) => {
      if (++count === 1) return;
      setTimeout(() => {
        response.writeHead(200, { 'content-type': 'application/json' });
        response.end(JSON.stringify({ ok: true, data: { sessions: [] } }));
      }, 300);
    };
    const started = Date.now();
    const api = client({ timeoutMs: 20_000, firstAttemptTimeoutMs: 200 });
    await expect(api.sessions.list({})).resolves.toEqual({ sessions: [] });
    expect(count).toBe(2);
    expect(Date.now() - started).toBeLessThan(5_000);

    // Not shortened: a non-idempotent method, a call without retries, or a payload that asks the server
    // to wait (system.status waits timeoutMs for the services, plus a margin here).
    const slow = (data: unknown) => {
      count = 0;
      handler = (_request, response) => {
        count++;
        setTimeout(() => {
          response.writeHead(200, { 'content-type': 'application/json' });
          response.end(JSON.stringify({ ok: true, data }));
        }, 300);
      };
    };
    const id = '00000000-0000-4000-8000-000000000000';
    slow({ id, title: 't', autonomous: false, createdAt: 'x', updatedAt: 'x' });
    await expect(api.sessions.create({})).resolves.toMatchObject({ id });
    expect(count).toBe(1);
    slow({ sessions: [] });
    await expect(api.sessions.list({}, { retries: 0 })).resolves.toEqual({ sessions: [] });
    expect(count).toBe(1);
    slow({ checkedAt: 'x', waitedMs: 300, services: [] });
    await expect(api.system.status({ timeoutMs: 300 })).resolves.toMatchObject({ services: [] });
    expect(count).toBe(1);
    server.closeAllConnections();
  });

  it('refuses a reply that does not match the contract with a TalonProtocolError', async () => {
    reply(200, { ok: true, data: { sessions: 'not a list' } });
    await expect(client().sessions.list()).rejects.toBeInstanceOf(TalonProtocolError);
    reply(200, '<html>proxy error</html>');
    await expect(client().sessions.list()).rejects.toMatchObject({ code: 'PROTOCOL_ERROR' });
    reply(500, { ok: false, error: { message: 'no code' } });
    await expect(client().sessions.list()).rejects.toMatchObject({ code: 'PROTOCOL_ERROR' });
  });

  it('times out with a retryable TIMEOUT and aborts with ABORTED', async () => {
    handler = () => undefined; // never answers
    await expect(client({ retries: 0 }).tools.list({}, { timeoutMs: 100 })).rejects.toMatchObject({
      code: 'TIMEOUT',
      retryable: true,
    });
    const controller = new AbortController();
    const pending = client().tools.list({}, { signal: controller.signal });
    controller.abort();
    await expect(pending).rejects.toMatchObject({ code: 'ABORTED' });
    server.closeAllConnections();
  });

  it('ends a chat stream cut before its turn ended with STREAM_INTERRUPTED and the last event id', async () => {
    handler = (_request, response) => {
      response.writeHead(200, { 'content-type': 'text/event-stream' });
      response.write(
        'id: e1\nevent: turn_started\ndata: {"type":"turn_started","sessionId":"s","turnId":"t","resumed":false}\n\n',
      );
      response.write('event: usage\ndata: {"type":"usage","sessionId":"s"}\n\n'); // unknown to the client: skipped
      setTimeout(() => response.destroy(), 50);
    };
    const seen: string[] = [];
    const error = await (async () => {
      for await (const event of client().chat.stream('s', 'hi')) seen.push(event.type);
    })().catch((e: unknown) => e);
    expect(seen).toEqual(['turn_started']);
    expect(error).toBeInstanceOf(TalonStreamInterruptedError);
    expect(error).toMatchObject({ code: 'STREAM_INTERRUPTED', lastEventId: 'e1', retryable: true });
  });

  it('ends a chat stream with ABORTED at the abort, though the rest of the turn already arrived', async () => {
    handler = (_request, response) => {
      response.writeHead(200, { 'content-type': 'text/event-stream' });
      // The whole turn in one write: it is buffered in the client when the caller aborts.
      response.end(
        'event: turn_started\ndata: {"type":"turn_started","sessionId":"s","turnId":"t","resumed":false}\n\n' +
          'event: message\ndata: {"type":"message","sessionId":"s","turnId":"t","role":"assistant","content":"x"}\n\n' +
          'event: result\ndata: {"type":"result","sessionId":"s","turnId":"t","content":"x","reason":"final_answer"}\n\n',
      );
    };
    const controller = new AbortController();
    const seen: string[] = [];
    const error = await (async () => {
      for await (const event of client().chat.stream('s', 'hi', { signal: controller.signal })) {
        seen.push(event.type);
        controller.abort();
      }
    })().catch((e: unknown) => e);
    expect(seen).toEqual(['turn_started']);
    expect(error).toMatchObject({ code: 'ABORTED' });
  });

  it('refuses a chat event that does not match the contract, and types a fatal error event', async () => {
    handler = (_request, response) => {
      response.writeHead(200, { 'content-type': 'text/event-stream' });
      response.end(
        'event: text_delta\ndata: {"type":"text_delta","sessionId":"s","turnId":"t","text":42}\n\n',
      );
    };
    await expect(client().chat.stream('s', 'hi')[Symbol.asyncIterator]().next()).rejects.toBeInstanceOf(
      TalonProtocolError,
    );
    handler = (_request, response) => {
      response.writeHead(200, { 'content-type': 'text/event-stream' });
      response.end(
        'event: error\ndata: {"type":"error","sessionId":"s","fatal":true,"error":{"code":"UNAUTHENTICATED","message":"The token expired."}}\n\n',
      );
    };
    await expect(client().chat.stream('s', 'hi')[Symbol.asyncIterator]().next()).rejects.toMatchObject({
      code: 'UNAUTHENTICATED',
      retryable: false,
    });
  });

  it('refuses options that make no sense, saying what to fix', () => {
    expect(() => createTalonClient({ token: 't' })).toThrow(/exactly one of `nats`/);
    expect(() => createTalonClient({ http: url, timeoutMs: -1 })).toThrow(/timeoutMs must be a positive/);
    expect(() => createTalonClient({ http: url, firstAttemptTimeoutMs: 0 })).toThrow(
      /firstAttemptTimeoutMs must be a positive/,
    );
  });
});
