import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import grpc from '@grpc/grpc-js';
import protoLoader from '@grpc/proto-loader';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import {
  createTalonClient,
  TalonAbortedError,
  TalonError,
  type TalonClient,
  type TypedChatEvent,
} from '@talon/client';
import { API_METHOD_NAMES, API_METHODS, ERROR_CODES, TALON_PROTO_PATH } from '@talon/contracts';
import {
  createTestDatabase,
  findFreePort,
  startNatsTestServer,
  startServiceProcess,
  type NatsTestServer,
  type ServiceProcess,
  type TestDatabase,
} from '@talon/testing';

const addFormats = ((addFormatsModule as unknown as { default?: unknown }).default ??
  addFormatsModule) as unknown as (ajv: Ajv2020) => Ajv2020;

/** A scripted model: each chat test consumes its two steps in order (ask to delete → approval → report). */
const roundTrip = (surface: string) => [
  {
    name: `${surface}: asks to delete`,
    expect: { lastUserMessageContains: `delete over ${surface}` },
    reply: {
      text: 'Deleting it.',
      toolCalls: [{ id: `call_${surface}`, name: 'secret_delete', arguments: { name: `OLD_${surface}` } }],
    },
  },
  {
    name: `${surface}: reports`,
    expect: { toolResults: [{ callId: `call_${surface}`, contains: 'deleted' }] },
    reply: { text: `Deleted over ${surface}.` },
  },
];
const SCRIPT = {
  model: 'scripted-client',
  steps: [
    ...roundTrip('nats'),
    ...roundTrip('http'),
    ...roundTrip('resume'),
    { name: 'aborted', expect: { lastUserMessageContains: 'abort me' }, reply: { text: 'Still answering.' } },
    {
      name: 'aborted again',
      expect: { lastUserMessageContains: 'abort me' },
      reply: { text: 'Still answering.' },
    },
  ],
};

const UUID = '00000000-0000-4000-8000-000000000000';

describe('@talon/client, the OpenAPI document and the typed gRPC RPCs against a real stack', () => {
  let nats: NatsTestServer;
  let database: TestDatabase;
  let stateDir: string;
  let httpUrl: string;
  let grpcPort: number;
  const services: ServiceProcess[] = [];
  let overNats: TalonClient;
  let apiConnection: Awaited<ReturnType<NatsTestServer['connect']>>;
  let overHttp: TalonClient;

  beforeAll(async () => {
    [nats, database] = await Promise.all([startNatsTestServer(), createTestDatabase()]);
    stateDir = await mkdtemp(join(tmpdir(), 'talon-client-'));
    const script = join(stateDir, 'script.json');
    await writeFile(script, JSON.stringify(SCRIPT));
    const httpPort = await findFreePort();
    grpcPort = await findFreePort();
    httpUrl = `http://127.0.0.1:${httpPort}`;
    const base = { NATS_URL: nats.url, TALON_STATE_DIR: stateDir };
    services.push(
      ...(await Promise.all([
        startServiceProcess('tool-worker', base),
        startServiceProcess('skill-service', { ...base, SKILLS_WORKSPACE_DIR: join(stateDir, 'skills') }),
        startServiceProcess('orchestrator', {
          ...base,
          DATABASE_URL: database.url,
          TALON_HTTP_PORT: String(httpPort),
          TALON_GRPC_PORT: String(grpcPort),
          TALON_LLM_PROVIDER: 'scripted',
          TALON_LLM_SCRIPT: script,
          TALON_SECRETS_KEY: Buffer.alloc(32, 5).toString('hex'),
          TALON_APPROVAL_TIMEOUT_MS: '60000',
        }),
      ])),
    );
    apiConnection = await nats.connect('api');
    overNats = createTalonClient({ nats: apiConnection, token: nats.bootstrapToken });
    overHttp = createTalonClient({ http: httpUrl, token: nats.bootstrapToken });
    // The catalog fills as workers announce.
    for (let tries = 0; tries < 100; tries++) {
      const { tools } = await overNats.tools.list();
      if (tools.some((tool) => tool.definition.name === 'echo')) break;
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  }, 120_000);

  afterAll(async () => {
    await overNats?.close();
    await apiConnection?.close();
    await Promise.all(services.map((service) => service.kill()));
    await Promise.all([nats?.stop(), database?.drop()]);
    await rm(stateDir, { recursive: true, force: true });
  });

  it('serves every method of the contract table, and no other, with the scope the table names', async () => {
    const response = await fetch(`${httpUrl}/v1/methods`, {
      headers: { authorization: `Bearer ${nats.bootstrapToken}` },
    });
    const listed = ((await response.json()) as { data: Array<{ name: string; scope: string }> }).data;
    expect(listed.map((method) => method.name).sort()).toEqual([...API_METHOD_NAMES]);
    for (const { name, scope } of listed)
      expect([name, scope]).toEqual([name, API_METHODS[name as 'tools.list'].scope]);
  });

  it('calls every documented operation once and each live reply matches its documented schema', async () => {
    const document = (await (await fetch(`${httpUrl}/v1/openapi.json`)).json()) as {
      paths: Record<string, { post?: { responses: Record<string, unknown> } }>;
    };
    const ajv = addFormats(new Ajv2020({ strict: false, allErrors: true }));
    ajv.addSchema(document, 'openapi');
    const session = await overNats.sessions.create({ title: 'sweep' });
    const examples: Record<string, unknown> = {
      'tools.info': { name: 'echo' },
      'tools.call': { tool: 'echo', params: { message: 'sweep' } },
      'sessions.get': { id: session.id, includeMessages: true },
      'sessions.create': { title: 'sweep 2' },
      'schedule.parse': { text: 'every day at 9am' },
      'skills.search': { query: 'notes' },
      'skills.select': { message: 'hello' },
      'jobs.get': { id: UUID },
      'routines.get': { id: UUID },
      'approvals.resolve': { id: UUID, decision: 'deny' },
      'tokens.create': { name: 'sweep', scope: 'read' },
    };
    const outcomes: string[] = [];
    for (const name of API_METHOD_NAMES) {
      const response = await fetch(`${httpUrl}/v1/rpc/${name}`, {
        method: 'POST',
        headers: { authorization: `Bearer ${nats.bootstrapToken}`, 'content-type': 'application/json' },
        body: JSON.stringify(examples[name] ?? {}),
      });
      const body = (await response.json()) as { ok: boolean; error?: { code: string } };
      const responses = document.paths[`/v1/rpc/${name}`]!.post!.responses;
      expect([name, Object.keys(responses)]).toEqual([
        name,
        expect.arrayContaining([String(response.status)]),
      ]);
      const documented = responses[String(response.status)] as { $ref?: string };
      const at = documented.$ref
        ? documented.$ref
        : `#/paths/${`/v1/rpc/${name}`.replace(/\//g, '~1')}/post/responses/${response.status}`;
      const resolved = ajv.compile({ $ref: `openapi${at}/content/application~1json/schema` });
      const valid = resolved(body);
      expect([name, response.status, valid ? 'valid' : resolved.errors]).toEqual([
        name,
        response.status,
        'valid',
      ]);
      outcomes.push(`${name} ${response.status}${body.ok ? '' : ` ${body.error?.code}`}`);
    }
    // The main methods really ran (not only their error halves were checked).
    for (const name of [
      'tools.list',
      'tools.call',
      'sessions.get',
      'system.status',
      'schedule.parse',
      'tokens.list',
    ])
      expect(outcomes).toContain(`${name} 200`);
  });

  it('every client method answers over NATS and HTTP with data or a typed wire error, never garbage', async () => {
    const session = await overHttp.sessions.create({});
    for (const client of [overNats, overHttp]) {
      for (const name of API_METHOD_NAMES) {
        const payload =
          name === 'tools.call'
            ? { tool: 'echo', params: { message: 'typed' } }
            : name === 'sessions.get'
              ? { id: session.id }
              : {};
        const outcome = await client
          .callUnlisted(name, payload)
          .then(() => 'ok')
          .catch((error: unknown) => (TalonError.isInstance(error) ? error.code : String(error)));
        expect([name, Object.values(ERROR_CODES) as string[]]).toEqual([
          name,
          outcome === 'ok' ? expect.anything() : expect.arrayContaining([outcome]),
        ]);
      }
    }
    const echoed = await overNats.tools.call({ tool: 'echo', params: { message: 'typed' } });
    expect(echoed.output).toBe('typed');
    expect((await overHttp.sessions.get({ id: session.id })).id).toBe(session.id);
  });

  it('answers an unknown method with UNKNOWN_METHOD and the list of methods', async () => {
    for (const client of [overNats, overHttp]) {
      const error = await client.callUnlisted('nope.method', {}).catch((e: unknown) => e);
      expect(error).toMatchObject({ code: 'UNKNOWN_METHOD', retryable: false });
      expect((error as TalonError).details).toMatchObject({ known: expect.arrayContaining(['tools.call']) });
    }
  });

  async function roundTripOver(client: TalonClient, surface: string): Promise<TypedChatEvent[]> {
    const session = await client.sessions.create({ title: surface });
    const events: TypedChatEvent[] = [];
    for await (const event of client.chat.stream(session.id, `please delete over ${surface}`)) {
      events.push(event);
      if (event.type === 'approval_requested') {
        expect(event.tool).toBe('secret_delete');
        await client.approvals.resolve({ id: event.approvalId, decision: 'approve', resolvedBy: 'test' });
      }
    }
    return events;
  }

  it.each([
    ['nats', () => overNats],
    ['http', () => overHttp],
  ])('streams a turn over %s with an approval round trip, ending with result', async (surface, client) => {
    const events = await roundTripOver(client(), surface);
    const types = events.map((event) => event.type);
    expect(types).toEqual(
      expect.arrayContaining([
        'turn_started',
        'approval_requested',
        'approval_resolved',
        'tool_call_finished',
      ]),
    );
    expect(types.at(-1)).toBe('result');
    const result = events.at(-1) as Extract<TypedChatEvent, { type: 'result' }>;
    expect(result.content).toBe(`Deleted over ${surface}.`);
    expect(events.find((event) => event.type === 'tool_call_finished')).toMatchObject({
      tool: 'secret_delete',
      ok: true,
    });
  });

  it('ends a stream with TalonAbortedError when its AbortSignal fires, whatever of the turn already arrived', async () => {
    for (const client of [overHttp, overNats]) {
      const session = await client.sessions.create({});
      const controller = new AbortController();
      const seen: string[] = [];
      const error = await (async () => {
        for await (const event of client.chat.stream(session.id, 'abort me', { signal: controller.signal })) {
          seen.push(event.type);
          controller.abort();
        }
      })().catch((e: unknown) => e);
      // Compared whole, so a failure says which error it was and what was seen.
      const { code, message } = (error ?? {}) as { code?: string; message?: string };
      expect({ aborted: error instanceof TalonAbortedError, code, message, seen }).toEqual({
        aborted: true,
        code: 'ABORTED',
        message: expect.stringContaining('was aborted by the caller'),
        seen: [expect.any(String)],
      });
    }
    const refusedStream = overNats.chat.stream(UUID, 'no such session');
    const refused = await refusedStream[Symbol.asyncIterator]()
      .next()
      .catch((e: unknown) => e);
    expect(refused).toMatchObject({ code: expect.stringMatching(/NOT_FOUND|FORBIDDEN/) });
  });

  it('resumes a turn after its stream ended mid-turn, from the last event id (replayed, then live)', async () => {
    const session = await overHttp.sessions.create({});
    const controller = new AbortController();
    let requested: Extract<TypedChatEvent, { type: 'approval_requested' }> | undefined;
    const cut = await (async () => {
      for await (const event of overHttp.chat.stream(session.id, 'please delete over resume', {
        signal: controller.signal,
      })) {
        if (event.type === 'approval_requested') {
          requested = event;
          controller.abort(); // the stream ends here; the turn waits server-side
        }
      }
    })().catch((e: unknown) => e);
    expect(cut).toBeInstanceOf(TalonAbortedError);
    expect(requested?.eventId).toEqual(expect.any(String));
    // Resolved while nobody listens: the events it causes are replayed to the resumed stream.
    await overNats.approvals.resolve({ id: requested!.approvalId, decision: 'approve' });
    await new Promise((resolve) => setTimeout(resolve, 300));
    const resumed: string[] = [];
    for await (const event of overHttp.chat.resume(session.id, requested!.eventId)) resumed.push(event.type);
    expect(resumed[0]).toBe('approval_resolved');
    expect(resumed).toEqual(expect.arrayContaining(['tool_call_finished', 'turn_finished']));
    expect(resumed.at(-1)).toBe('turn_finished');
  });

  describe('gRPC with a plain @grpc/grpc-js client and only the proto', () => {
    type Unary = (
      request: object,
      metadata: grpc.Metadata,
      callback: (error: grpc.ServiceError | null, reply: any) => void,
    ) => void;
    let talon: grpc.Client & Record<string, Unary>;
    const call = (rpc: string, request: object, token: string | null = nats.bootstrapToken) =>
      new Promise<any>((resolve, reject) => {
        const metadata = new grpc.Metadata();
        if (token) metadata.set('authorization', `Bearer ${token}`);
        talon[rpc]!(request, metadata, (error, reply) => (error ? reject(error) : resolve(reply)));
      });

    beforeAll(() => {
      const definition = protoLoader.loadSync(TALON_PROTO_PATH, { keepCase: true, defaults: true });
      const proto = grpc.loadPackageDefinition(definition) as any;
      talon = new proto.talon.v1.Talon(`127.0.0.1:${grpcPort}`, grpc.credentials.createInsecure());
    });
    afterAll(() => talon?.close());

    it('lists and calls tools, creates, gets and lists sessions, lists approvals', async () => {
      const tools = await call('ListTools', {});
      expect(tools.tools.map((tool: { name: string }) => tool.name)).toContain('echo');
      const echo = tools.tools.find((tool: { name: string }) => tool.name === 'echo');
      expect(JSON.parse(echo.parameters_json)).toMatchObject({ type: 'object' });
      const reply = await call('CallTool', {
        tool: 'echo',
        params_json: JSON.stringify({ message: 'grpc' }),
      });
      expect(JSON.parse(reply.output_json)).toBe('grpc');
      const session = await call('CreateSession', { title: 'over grpc' });
      expect(session.id).toMatch(/^[0-9a-f-]{36}$/);
      expect((await call('GetSession', { id: session.id })).title).toBe('over grpc');
      const listed = await call('ListSessions', { limit: 50 });
      expect(listed.sessions.map((item: { id: string }) => item.id)).toContain(session.id);
      expect(await call('ListApprovals', { session_id: session.id })).toEqual({ approvals: [] });
    });

    it('maps Talon codes to gRPC statuses, with the code in the trailers', async () => {
      const cases: Array<[string, object, string | null, number, string]> = [
        [
          'GetSession',
          { id: 'not-a-uuid' },
          nats.bootstrapToken,
          grpc.status.INVALID_ARGUMENT,
          'SCHEMA_VIOLATION',
        ],
        ['GetSession', { id: UUID }, nats.bootstrapToken, grpc.status.NOT_FOUND, 'NOT_FOUND'],
        ['CallTool', { tool: 'no_such_tool' }, nats.bootstrapToken, grpc.status.NOT_FOUND, 'UNKNOWN_TOOL'],
        [
          'CallTool',
          { tool: 'echo', params_json: '{oops' },
          nats.bootstrapToken,
          grpc.status.INVALID_ARGUMENT,
          'MALFORMED_JSON',
        ],
        ['ListTools', {}, null, grpc.status.UNAUTHENTICATED, 'UNAUTHENTICATED'],
        [
          'ResolveApproval',
          { id: UUID, decision: 'maybe' },
          nats.bootstrapToken,
          grpc.status.INVALID_ARGUMENT,
          'SCHEMA_VIOLATION',
        ],
      ];
      for (const [rpc, request, token, status, code] of cases) {
        const error = (await call(rpc, request, token).catch((e: unknown) => e)) as grpc.ServiceError;
        expect([rpc, code, error.code, error.metadata?.get('talon-error-code')[0]]).toEqual([
          rpc,
          code,
          status,
          code,
        ]);
        expect(error.details.startsWith(`${code}: `)).toBe(true);
      }
    });

    it('offers server reflection that lists the Talon service', async () => {
      const reflectionProto = join(
        dirname(createRequire(import.meta.url).resolve('@grpc/reflection/package.json')),
        'build/proto/grpc/reflection/v1/reflection.proto',
      );
      const definition = protoLoader.loadSync(reflectionProto, { keepCase: true });
      const proto = grpc.loadPackageDefinition(definition) as any;
      const reflection = new proto.grpc.reflection.v1.ServerReflection(
        `127.0.0.1:${grpcPort}`,
        grpc.credentials.createInsecure(),
      );
      const stream = reflection.ServerReflectionInfo();
      const reply = await new Promise<any>((resolve, reject) => {
        stream.on('data', resolve);
        stream.on('error', reject);
        stream.write({ list_services: '' });
      });
      stream.end();
      reflection.close();
      expect(reply.list_services_response.service.map((service: { name: string }) => service.name)).toContain(
        'talon.v1.Talon',
      );
    });
  });
});
