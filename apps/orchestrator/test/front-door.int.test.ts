import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { request as httpRequest } from 'node:http';
import grpc from '@grpc/grpc-js';
import protoLoader from '@grpc/proto-loader';
import { mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createTalonClient } from '@talon/client';
import {
  SUBJECTS,
  TALON_PROTO_PATH,
  type ApiScope,
  type ChatEvent,
  type Envelope,
  type Session,
  type TokensCreateReply,
} from '@talon/contracts';
import {
  connectTalonApi,
  createTestDatabase,
  findFreePort,
  startNatsTestServer,
  startServiceProcess,
  waitUntil,
  type NatsTestServer,
  type ServiceProcess,
  type TestDatabase,
} from '@talon/testing';
import { startOrchestratorUnderTest, type OrchestratorUnderTest } from './support/front-door-stack.js';

type Surface = 'http' | 'grpc' | 'nats';
const SURFACES: Surface[] = ['http', 'grpc', 'nats'];
const AUTH_CODES = ['UNAUTHENTICATED', 'FORBIDDEN'];

/** A raw HTTP request, so tests can send any Host header and body they like. */
function raw(
  url: string,
  options: { method?: string; path: string; headers?: Record<string, string>; body?: string },
): Promise<{ status: number; headers: Record<string, string | string[] | undefined>; body: string }> {
  const target = new URL(url);
  return new Promise((resolve, reject) => {
    const outgoing = httpRequest(
      {
        host: target.hostname,
        port: target.port,
        path: options.path,
        method: options.method ?? 'GET',
        headers: options.headers,
      },
      (response) => {
        let body = '';
        response.on('data', (chunk: Buffer) => (body += chunk.toString()));
        response.on('end', () =>
          resolve({ status: response.statusCode ?? 0, headers: response.headers, body }),
        );
      },
    );
    outgoing.on('error', reject);
    outgoing.end(options.body);
  });
}

describe('the front door: tokens and scopes on every surface', () => {
  let nats: NatsTestServer;
  let database: TestDatabase;
  let primary: OrchestratorUnderTest;
  let secondary: OrchestratorUnderTest;
  let stateDir: string;
  const workers: ServiceProcess[] = [];
  const tokens: Record<ApiScope, string> = { read: '', agent: '', operator: '' };

  const call = (surface: Surface, method: string, payload: unknown, token?: string) =>
    surface === 'http'
      ? primary.http(method, payload, token).then((reply) => reply.body)
      : primary[surface](method, payload, token);

  async function createToken(
    scope: ApiScope,
    extra: Record<string, unknown> = {},
  ): Promise<TokensCreateReply> {
    const reply = await primary.nats<TokensCreateReply>(
      'tokens.create',
      { name: `test ${scope}`, scope, ...extra },
      nats.bootstrapToken,
    );
    if (!reply.ok) throw new Error(reply.error.message);
    return reply.data;
  }

  beforeAll(async () => {
    [nats, database] = await Promise.all([startNatsTestServer(), createTestDatabase()]);
    stateDir = await mkdtemp(join(tmpdir(), 'talon-front-door-'));
    // Turns that outlive a short token: each asks for an echo that takes 10 s.
    const script = join(stateDir, 'script.json');
    const slowEcho = (id: string) => ({
      expect: { lastUserMessageContains: 'slowly' },
      reply: { toolCalls: [{ id, name: 'echo', arguments: { message: 'slow', delayMs: 10_000 } }] },
    });
    await writeFile(
      script,
      JSON.stringify({ model: 'scripted-front-door', steps: [slowEcho('call_1'), slowEcho('call_2')] }),
    );
    const env = {
      DATABASE_URL: database.url,
      TALON_STATE_DIR: stateDir,
      TALON_LLM_PROVIDER: 'scripted',
      TALON_LLM_SCRIPT: script,
    };
    [primary, secondary] = await Promise.all([
      startOrchestratorUnderTest(nats, env),
      startOrchestratorUnderTest(nats, env),
    ]);
    workers.push(
      ...(await Promise.all([
        startServiceProcess('tool-worker', { NATS_URL: nats.url }),
        startServiceProcess('skill-service', {
          NATS_URL: nats.url,
          SKILLS_WORKSPACE_DIR: join(stateDir, 'skills'),
        }),
        startServiceProcess('wasm-runner', { NATS_URL: nats.url, TALON_STATE_DIR: join(stateDir, 'runner') }),
      ])),
    );
    for (const scope of ['read', 'agent', 'operator'] as const)
      tokens[scope] = (await createToken(scope)).token;
  }, 120_000);

  afterAll(async () => {
    await Promise.all([primary?.close(), secondary?.close(), ...workers.map((worker) => worker.stop())]);
    await Promise.all([nats?.stop(), database?.drop()]);
    await rm(stateDir, { recursive: true, force: true });
  });

  it('gives every method a scope, and checks it on HTTP, gRPC and NATS alike', async () => {
    const listed = await primary.http<Array<{ name: string; scope: string }>>(
      'system.status',
      {},
      tokens.read,
    );
    expect(listed.status).toBe(200);
    const methods = (await (
      await fetch(`${primary.httpUrl}/v1/methods`, { headers: { authorization: `Bearer ${tokens.read}` } })
    ).json()) as Envelope<Array<{ name: string; scope: string }>>;
    if (!methods.ok) throw new Error(methods.error.message);
    expect(methods.data.length).toBeGreaterThan(30);
    for (const method of methods.data)
      expect(['read', 'agent', 'operator', 'by-request']).toContain(method.scope);
    const rank = { read: 0, agent: 1, operator: 2 } as const;
    const failures: string[] = [];
    for (const surface of SURFACES) {
      for (const method of methods.data) {
        // A request-dependent scope (tools.call) is decided on a valid payload.
        const payload = method.scope === 'by-request' ? { tool: 'echo', params: { message: 'x' } } : {};
        const needed = method.scope === 'by-request' ? 'operator' : (method.scope as ApiScope);
        const anonymous = await call(surface, method.name, payload);
        if (anonymous.ok || anonymous.error.code !== 'UNAUTHENTICATED')
          failures.push(
            `${surface} ${method.name} without a token: ${JSON.stringify(anonymous).slice(0, 120)}`,
          );
        const bogus = await call(
          surface,
          method.name,
          payload,
          'talon_not-a-real-token-0123456789abcdefghijkl',
        );
        if (bogus.ok || bogus.error.code !== 'UNAUTHENTICATED')
          failures.push(`${surface} ${method.name} with a bogus token`);
        for (const scope of ['read', 'agent', 'operator'] as const) {
          const reply = await call(surface, method.name, payload, tokens[scope]);
          const refused = !reply.ok && AUTH_CODES.includes(reply.error.code);
          const shouldRefuse = rank[scope] < rank[needed];
          if (shouldRefuse && (reply.ok || reply.error.code !== 'FORBIDDEN'))
            failures.push(
              `${surface} ${method.name} with ${scope}: expected FORBIDDEN, got ${JSON.stringify(reply).slice(0, 120)}`,
            );
          if (!shouldRefuse && refused)
            failures.push(
              `${surface} ${method.name} with ${scope}: refused with ${!reply.ok && reply.error.code}`,
            );
        }
      }
    }
    expect(failures).toEqual([]);
  }, 240_000);

  it('decides tools.call by its policy: agent calls with an agent token, operator calls only with operator', async () => {
    const session = await primary.nats<Session>('sessions.create', {}, tokens.agent);
    if (!session.ok) throw new Error(session.error.message);
    const agentCall = {
      tool: 'echo',
      params: { message: 'as agent' },
      policy: 'agent',
      sessionId: session.data.id,
    };
    expect(await primary.nats('tools.call', agentCall, tokens.agent)).toMatchObject({ ok: true });
    expect(await primary.nats('tools.call', agentCall, tokens.read)).toMatchObject({
      ok: false,
      error: { code: 'FORBIDDEN' },
    });
    expect(
      await primary.nats('tools.call', { tool: 'echo', params: { message: 'op' } }, tokens.agent),
    ).toMatchObject({
      ok: false,
      error: { code: 'FORBIDDEN', details: { needed: 'operator', held: 'agent' } },
    });
  });

  it('keeps agent tokens to their own sessions; operators see all', async () => {
    const other = (await createToken('agent')).token;
    const mine = await primary.nats<Session>('sessions.create', { title: 'mine' }, tokens.agent);
    if (!mine.ok) throw new Error(mine.error.message);
    const id = mine.data.id;
    expect(await primary.nats('sessions.get', { id }, other)).toMatchObject({
      ok: false,
      error: { code: 'NOT_FOUND' },
    });
    expect(await primary.nats('chat.send', { sessionId: id, message: '/help' }, other)).toMatchObject({
      ok: false,
      error: { code: 'NOT_FOUND' },
    });
    expect(
      await primary.nats(
        'tools.call',
        { tool: 'echo', params: { message: 'x' }, policy: 'agent', sessionId: id },
        other,
      ),
    ).toMatchObject({
      ok: false,
      error: { code: 'NOT_FOUND' },
    });
    const listedByOther = await primary.nats<{ sessions: Session[] }>('sessions.list', {}, other);
    expect(listedByOther.ok && listedByOther.data.sessions.map((session) => session.id)).not.toContain(id);
    const listedByOwner = await primary.nats<{ sessions: Session[] }>('sessions.list', {}, tokens.agent);
    expect(listedByOwner.ok && listedByOwner.data.sessions.map((session) => session.id)).toContain(id);
    expect(await primary.nats('sessions.get', { id }, tokens.operator)).toMatchObject({ ok: true });
    // The live event stream of someone else's session is refused too.
    const events = await fetch(`${primary.httpUrl}/v1/sessions/${id}/events`, {
      headers: { authorization: `Bearer ${other}` },
    });
    expect(events.status).toBe(404);
  });

  it('refuses ids that would widen a NATS subscription', async () => {
    for (const id of ['*', '>', 'a.b', '%2A', encodeURIComponent('00000000-0000-0000-0000-00000000000*')]) {
      const response = await fetch(`${primary.httpUrl}/v1/sessions/${id}/events`, {
        headers: { authorization: `Bearer ${tokens.operator}` },
      });
      expect([400, 404]).toContain(response.status);
      if (response.status === 400)
        expect(await response.json()).toMatchObject({ error: { code: 'SCHEMA_VIOLATION' } });
    }
  });

  it('revokes a token on every orchestrator within a second', async () => {
    const created = await createToken('agent');
    expect(await secondary.nats('sessions.list', {}, created.token)).toMatchObject({ ok: true });
    const revoked = await primary.nats<{ revokedAt: string }>(
      'tokens.revoke',
      { id: created.id },
      tokens.operator,
    );
    expect(revoked).toMatchObject({ ok: true, data: { revokedAt: expect.any(String) } });
    const started = Date.now();
    // NATS API calls go to either orchestrator (one queue group): the other one may still hold the token
    // in its short cache, so both are polled, each within the bound.
    await waitUntil(
      async () => {
        const reply = await primary.nats('sessions.list', {}, created.token);
        return !reply.ok && reply.error.code === 'UNAUTHENTICATED';
      },
      3_000,
      'revocation through the primary',
      50,
    );
    const took = await waitUntil(
      async () => {
        const reply = await secondary.nats('sessions.list', {}, created.token);
        return !reply.ok && reply.error.code === 'UNAUTHENTICATED';
      },
      3_000,
      'revocation on the second orchestrator',
      20,
    );
    expect(Date.now() - started).toBeLessThan(1_000);
    expect(took).toBeLessThan(1_000);
    // Revoking again is harmless; an unknown id is NOT_FOUND.
    expect(await primary.nats('tokens.revoke', { id: created.id }, tokens.operator)).toMatchObject({
      ok: true,
    });
    expect(
      await primary.nats('tokens.revoke', { id: 'tok_0000000000000000' }, tokens.operator),
    ).toMatchObject({
      ok: false,
      error: { code: 'NOT_FOUND' },
    });
    const listed = await primary.nats<{ tokens: Array<{ id: string; lastUsedAt?: string }> }>(
      'tokens.list',
      { includeRevoked: true },
      tokens.operator,
    );
    expect(listed.ok && listed.data.tokens.find((token) => token.id === created.id)).toMatchObject({
      lastUsedAt: expect.any(String),
    });
    expect(JSON.stringify(listed)).not.toContain(created.token);
  });

  it('refuses an expired token', async () => {
    const created = await createToken('read', { expiresInSeconds: 1 });
    expect(await primary.nats('system.status', {}, created.token)).toMatchObject({ ok: true });
    await new Promise((resolve) => setTimeout(resolve, 1_200));
    expect(await primary.nats('system.status', {}, created.token)).toMatchObject({
      ok: false,
      error: { code: 'UNAUTHENTICATED', message: expect.stringContaining('expired') },
    });
  });

  it('ends an open event stream with a typed error when its token expires or is revoked', async () => {
    /** Opens the session's live stream and resolves with all it received once the server ends it. */
    const streamUntilEnd = async (token: string, sessionId: string) => {
      const response = await fetch(`${primary.httpUrl}/v1/sessions/${sessionId}/events`, {
        headers: { authorization: `Bearer ${token}` },
        signal: AbortSignal.timeout(15_000),
      });
      expect(response.status).toBe(200);
      const opened = Date.now();
      const text = await response.text();
      return { text, openMs: Date.now() - opened };
    };
    const expiring = await createToken('agent', { expiresInSeconds: 2 });
    const session = await primary.nats<Session>('sessions.create', { title: 'expiring' }, expiring.token);
    if (!session.ok) throw new Error(session.error.message);
    const expired = await streamUntilEnd(expiring.token, session.data.id);
    expect(expired.text).toContain('event: error');
    const event = JSON.parse(expired.text.split('data: ').pop()!.trim()) as Record<string, unknown>;
    expect(event).toMatchObject({
      type: 'error',
      fatal: true,
      error: { code: 'UNAUTHENTICATED', message: expect.stringMatching(/expired.*open it again/s) },
    });
    expect(expired.openMs).toBeLessThan(6_000);

    const revocable = await createToken('agent');
    const own = await primary.nats<Session>('sessions.create', { title: 'revoked' }, revocable.token);
    if (!own.ok) throw new Error(own.error.message);
    const ended = streamUntilEnd(revocable.token, own.data.id);
    await new Promise((resolve) => setTimeout(resolve, 500));
    await primary.nats('tokens.revoke', { id: revocable.id }, tokens.operator);
    const revoked = await ended;
    expect(revoked.text).toMatch(/"code":"UNAUTHENTICATED".*revoked/s);

    // The TypeScript client's stream ends with the typed error too.
    const shortLived = await createToken('agent', { expiresInSeconds: 2 });
    const client = createTalonClient({ http: primary.httpUrl, token: shortLived.token });
    const followed = await client.sessions.create({ title: 'client' });
    const thrown = await (async () => {
      try {
        for await (const _event of client.chat.resume(followed.id, undefined)) void _event;
      } catch (error) {
        return error;
      }
      return undefined;
    })();
    expect(thrown).toMatchObject({ code: 'UNAUTHENTICATED' });
    await client.close();
  });

  it('ends a gRPC Chat stream with UNAUTHENTICATED when its token expires or is revoked, and stops its turn', async () => {
    const proto = grpc.loadPackageDefinition(
      protoLoader.loadSync(TALON_PROTO_PATH, { keepCase: true }),
    ) as unknown as { talon: { v1: { Talon: grpc.ServiceClientConstructor } } };
    const client = new proto.talon.v1.Talon(
      `127.0.0.1:${primary.grpcPort}`,
      grpc.credentials.createInsecure(),
    ) as unknown as grpc.Client & {
      Chat(request: object, metadata: grpc.Metadata): grpc.ClientReadableStream<{ type: string }>;
    };
    const bus = await nats.connect('api');
    await waitUntil(
      async () => {
        const listed = await primary.nats<{ tools: Array<{ definition: { name: string } }> }>(
          'tools.list',
          {},
          tokens.read,
        );
        return listed.ok && listed.data.tools.some((tool) => tool.definition.name === 'echo');
      },
      45_000,
      'echo in the catalog',
    );
    /** One turn over gRPC Chat: the event types received, the final status, how long the stream was open. */
    const chatUntilEnd = async (token: string, sessionId: string, whileOpen?: () => Promise<unknown>) => {
      const finished = new Promise<ChatEvent>((resolve) => {
        const subscription = bus.subscribe(SUBJECTS.sessionEvents(sessionId), {
          callback: (_error, message) => {
            const event = message.json<ChatEvent>();
            if (event.type === 'turn_finished') {
              subscription.unsubscribe();
              resolve(event);
            }
          },
        });
      });
      await bus.flush();
      const metadata = new grpc.Metadata();
      metadata.set('authorization', `Bearer ${token}`);
      const opened = Date.now();
      const stream = client.Chat({ session_id: sessionId, message: 'echo this slowly' }, metadata);
      const types: string[] = [];
      stream.on('data', (event: { type: string }) => types.push(event.type));
      stream.on('error', () => undefined); // the status below says it
      const status = await new Promise<{ code: number; details: string }>((resolve) => {
        stream.on('status', resolve);
        void whileOpen?.();
      });
      const openMs = Date.now() - opened;
      return { types, status, openMs, turn: await finished, turnMs: Date.now() - opened };
    };

    const expiring = await createToken('agent', { expiresInSeconds: 2 });
    const session = await primary.nats<Session>(
      'sessions.create',
      { title: 'grpc expiring' },
      expiring.token,
    );
    if (!session.ok) throw new Error(session.error.message);
    const expired = await chatUntilEnd(expiring.token, session.data.id);
    expect(expired.types).toContain('tool_call_started');
    expect(expired.types).not.toContain('result');
    expect(expired.status).toMatchObject({
      code: grpc.status.UNAUTHENTICATED,
      details: expect.stringMatching(/^UNAUTHENTICATED: .*expired.*open it again/s),
    });
    // Ended within the recheck interval of the expiry, and the turn with it, long before the echo's 10 s.
    expect(expired.openMs).toBeLessThan(6_000);
    expect(expired.turn).toMatchObject({ reason: 'aborted' });
    expect(expired.turnMs).toBeLessThan(9_000);

    const revocable = await createToken('agent');
    const own = await primary.nats<Session>('sessions.create', { title: 'grpc revoked' }, revocable.token);
    if (!own.ok) throw new Error(own.error.message);
    const revoked = await chatUntilEnd(revocable.token, own.data.id, async () => {
      await new Promise((resolve) => setTimeout(resolve, 500));
      await primary.nats('tokens.revoke', { id: revocable.id }, tokens.operator);
    });
    expect(revoked.status).toMatchObject({
      code: grpc.status.UNAUTHENTICATED,
      details: expect.stringMatching(/revoked.*open it again/s),
    });
    expect(revoked.turn).toMatchObject({ reason: 'aborted' });
    expect(revoked.turnMs).toBeLessThan(9_000);
    client.close();
    await bus.close();
  }, 60_000);

  it('takes tokens from headers only, JSON bodies only, and allowed Hosts and Origins only', async () => {
    const url = primary.httpUrl;
    const port = new URL(url).port;
    const auth = { authorization: `Bearer ${tokens.operator}` };
    const inQuery = await raw(url, { path: `/v1/system/status?token=${tokens.operator}` });
    expect(inQuery.status).toBe(401);
    expect(JSON.parse(inQuery.body)).toMatchObject({
      error: { code: 'UNAUTHENTICATED', message: expect.stringContaining('header') },
    });
    for (const type of [
      'text/plain',
      'application/x-www-form-urlencoded',
      'multipart/form-data; boundary=x',
      '',
    ]) {
      const response = await raw(url, {
        method: 'POST',
        path: '/v1/rpc/tools.call',
        headers: { ...auth, host: `127.0.0.1:${port}`, ...(type ? { 'content-type': type } : {}) },
        body: '{"tool":"echo","params":{"message":"x"}}',
      });
      expect(response.status).toBe(415);
      expect(JSON.parse(response.body)).toMatchObject({ error: { code: 'UNSUPPORTED_MEDIA_TYPE' } });
    }
    const rebinding = await raw(url, {
      path: '/v1/system/status',
      headers: { ...auth, host: `attacker.example:${port}` },
    });
    expect(rebinding.status).toBe(403);
    expect(JSON.parse(rebinding.body)).toMatchObject({
      error: { code: 'FORBIDDEN', details: { reason: 'host' } },
    });
    const foreign = await raw(url, {
      method: 'POST',
      path: '/v1/rpc/system.status',
      headers: { ...auth, 'content-type': 'application/json', origin: 'http://evil.example' },
      body: '{}',
    });
    expect(foreign.status).toBe(403);
    expect(JSON.parse(foreign.body)).toMatchObject({ error: { details: { reason: 'origin' } } });
    const crossSite = await raw(url, {
      path: '/v1/system/status',
      headers: { ...auth, 'sec-fetch-site': 'cross-site' },
    });
    expect(crossSite.status).toBe(403);
    const same = await raw(url, {
      method: 'POST',
      path: '/v1/rpc/system.status',
      headers: {
        ...auth,
        'content-type': 'application/json',
        origin: `http://127.0.0.1:${port}`,
        host: `127.0.0.1:${port}`,
      },
      body: '{}',
    });
    expect(same.status).toBe(200);
    expect(same.headers['x-powered-by']).toBeUndefined();
    expect(same.headers['access-control-allow-origin']).toBeUndefined();
    const unauthenticated = await raw(url, { path: '/v1/system/status' });
    expect(unauthenticated.status).toBe(401);
    expect(unauthenticated.headers['www-authenticate']).toContain('Bearer');
    // /mcp and SSE routes are behind the same door.
    expect(
      (
        await raw(url, {
          method: 'POST',
          path: '/mcp',
          headers: { 'content-type': 'application/json' },
          body: '{}',
        })
      ).status,
    ).toBe(401);
    expect((await raw(url, { path: '/v1/system/status/stream' })).status).toBe(401);
    expect(
      (
        await raw(url, {
          method: 'POST',
          path: '/mcp',
          headers: { authorization: `Bearer ${tokens.read}`, 'content-type': 'application/json' },
          body: '{}',
        })
      ).status,
    ).toBe(403);
  });

  it('on gRPC, maps missing and insufficient tokens to the typed codes of typed RPCs too', async () => {
    const grpc = await import('@grpc/grpc-js');
    const protoLoader = await import('@grpc/proto-loader');
    const { TALON_PROTO_PATH } = await import('@talon/contracts');
    const proto = grpc.loadPackageDefinition(
      protoLoader.loadSync(TALON_PROTO_PATH, { keepCase: true }),
    ) as unknown as {
      talon: {
        v1: {
          Talon: new (
            address: string,
            credentials: unknown,
          ) => Record<string, (...args: unknown[]) => void> & { close(): void };
        };
      };
    };
    const client = new proto.talon.v1.Talon(
      `127.0.0.1:${primary.grpcPort}`,
      grpc.credentials.createInsecure(),
    );
    const status = (metadata: InstanceType<typeof grpc.Metadata>) =>
      new Promise<{ code?: number; details?: string }>((resolve) =>
        client.GetSystemStatus!({}, metadata, (error: { code: number; details: string } | null) =>
          resolve(error ?? {}),
        ),
      );
    const none = await status(new grpc.Metadata());
    expect(none).toMatchObject({
      code: grpc.status.UNAUTHENTICATED,
      details: expect.stringContaining('UNAUTHENTICATED'),
    });
    const ok = new grpc.Metadata();
    ok.set('authorization', `Bearer ${tokens.read}`);
    expect((await status(ok)).code).toBeUndefined();
    client.close();
  });
});

describe('the front door: bootstrap token and the switch for local experiments', () => {
  let nats: NatsTestServer;
  let database: TestDatabase;
  let stateDir: string;

  beforeAll(async () => {
    [nats, database] = await Promise.all([startNatsTestServer(), createTestDatabase()]);
    stateDir = await mkdtemp(join(tmpdir(), 'talon-bootstrap-'));
  }, 60_000);

  afterAll(async () => {
    await Promise.all([nats?.stop(), database?.drop()]);
    await rm(stateDir, { recursive: true, force: true });
  });

  it('creates a first operator token in the state dir (0600), logs its path and never the token, and keeps it across restarts', async () => {
    const env = { DATABASE_URL: database.url, TALON_STATE_DIR: stateDir, TALON_BOOTSTRAP_TOKEN: '' };
    const first = await startOrchestratorUnderTest(nats, env);
    const file = join(stateDir, 'operator.token');
    const token = (await readFile(file, 'utf8')).trim();
    expect(token).toMatch(/^talon_[A-Za-z0-9_-]{43}$/);
    expect((await stat(file)).mode & 0o777).toBe(0o600);
    expect(
      first.process.logs.some((line) => line.msg === 'operator token created' && line.file === file),
    ).toBe(true);
    expect(JSON.stringify(first.process.logs)).not.toContain(token);
    expect(await first.nats('tokens.list', {}, token)).toMatchObject({ ok: true });
    await first.close();
    const again = await startOrchestratorUnderTest(nats, env);
    expect(await again.nats('tokens.list', {}, token)).toMatchObject({ ok: true });
    const listed = await again.nats<{ tokens: unknown[] }>('tokens.list', {}, token);
    expect(listed.ok && listed.data.tokens).toHaveLength(1);
    await again.close();
  });

  it('answers no API call before its bootstrap token is registered (a fresh PGlite directory)', async () => {
    const api = await connectTalonApi(nats.url);
    const service = await startServiceProcess(
      'orchestrator',
      {
        NATS_URL: nats.url,
        TALON_STATE_DIR: stateDir,
        TALON_PGLITE_DIR: join(stateDir, 'pglite-fresh'),
        TALON_HTTP_PORT: String(await findFreePort()),
        TALON_GRPC_PORT: String(await findFreePort()),
      },
      { waitReady: false },
    );
    try {
      // From the first moment anything answers, every answer is the call's own: never UNAUTHENTICATED.
      const codes: string[] = [];
      const deadline = Date.now() + 100_000;
      while (codes.at(-1) !== 'ok' && Date.now() < deadline) {
        const reply = await api.call('system.status', {}, 2000).then(
          (envelope) => (envelope.ok ? 'ok' : envelope.error.code),
          (error: { code?: string }) => error.code ?? 'error',
        );
        if (reply !== 'NO_RESPONDERS' && reply !== 'TIMEOUT') codes.push(reply);
        else await new Promise((resolve) => setTimeout(resolve, 2));
      }
      expect(codes).toEqual(['ok']);
    } finally {
      await api.close();
      await service.stop();
    }
  }, 120_000);

  it('with TALON_AUTH=off lets calls in without a token, says so loudly, and still refuses browsers', async () => {
    const open = await startOrchestratorUnderTest(nats, {
      DATABASE_URL: database.url,
      TALON_STATE_DIR: stateDir,
      TALON_AUTH: 'off',
    });
    try {
      expect(
        open.process.logs.some(
          (line) => line.level === 'warn' && String(line.msg).includes('AUTHENTICATION IS OFF'),
        ),
      ).toBe(true);
      expect(await open.nats('system.status', {})).toMatchObject({ ok: true });
      const form = await raw(open.httpUrl, {
        method: 'POST',
        path: '/v1/rpc/tools.call',
        headers: { 'content-type': 'text/plain' },
        body: '{"tool":"echo","params":{"message":"x"}}',
      });
      expect(form.status).toBe(415);
      const foreign = await raw(open.httpUrl, {
        path: '/v1/system/status',
        headers: { origin: 'http://evil.example' },
      });
      expect(foreign.status).toBe(403);
    } finally {
      await open.close();
    }
  });
});
