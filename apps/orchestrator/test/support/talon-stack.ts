/**
 * One Talon on real processes for the orchestrator's integration suites: a secured NATS server, a
 * PostgreSQL database, a state directory, a model (the OpenAI-compatible test server or the scripted
 * provider), the workers a suite asks for and its orchestrators, then the API client; plus the waits every
 * suite wrote for itself (a tool in the catalog, an MCP server listed, a hand run in a state) and the built
 * CLI run against the stack.
 */
import { spawn } from 'node:child_process';
import { chmod, mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import pg from 'pg';
import type { HandRun, McpViewListReply, ToolsListReply } from '@talon/contracts';
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
import { startOpenAiCompatibleServer, type LlmTestServer } from '../../../../libs/llm/test/support/index.js';

/** A service the stack starts beside the orchestrators. */
export type StackWorker = 'tool-worker' | 'wasm-runner' | 'skill-service';

/** The registry entry of the MCP test server that answers text, images and audio (libs/mcp fixtures). */
export const MEDIA_MCP_SERVER = {
  name: 'media',
  transport: {
    type: 'stdio',
    command: process.execPath,
    args: [join(REPO_ROOT, 'libs/mcp/test/fixtures/media-server.mjs')],
  },
  sandbox: { read_paths: [join(REPO_ROOT, 'libs/mcp'), join(REPO_ROOT, 'node_modules')] },
  effects: [],
  approval: 'never',
} as const;

/** Options of {@link startTalonStack}. */
export interface TalonStackOptions {
  /** Prefix of the state directory made in the temp dir (unless `stateDir` is given). */
  name: string;
  /** A state directory the suite made itself (to name paths in it beforehand); removed on close. */
  stateDir?: string;
  /** `openai`: the OpenAI-compatible test server (`stack.llm`); `{ script }`: the scripted provider. */
  model?: 'openai' | { script: unknown };
  /** Hand manifests by id, written to `<state>/hands/<id>.HAND.toml` (the orchestrators' TALON_HANDS_DIR). */
  hands?: Record<string, string>;
  /** Registry MCP servers (the wasm-runner's TALON_MCP_CONFIG). */
  mcpServers?: readonly object[];
  /** Workers started side by side before the orchestrators, each with extra environment. */
  workers?: Partial<Record<StackWorker, Record<string, string>>>;
  /** Extra environment of every orchestrator. */
  orchestratorEnv?: Record<string, string>;
  /** Instance ids of the orchestrators, started one after the other (the first migrates). Default: one. */
  orchestrators?: readonly string[];
  /** Open a PostgreSQL client on the database (`stack.sql`), for checks the API does not show. */
  sql?: boolean;
  /** Tools the catalog must offer before the stack is handed over. */
  tools?: readonly string[];
  /** Registry MCP servers `mcp.list` must show before the stack is handed over. */
  mcpListed?: readonly string[];
}

/** An orchestrator of the stack. */
export interface StackOrchestrator {
  readonly instance: string | undefined;
  readonly process: ServiceProcess;
  readonly httpPort: number;
}

/** A running stack; `close()` stops every process and removes what it made. */
export interface TalonStack {
  readonly nats: NatsTestServer;
  readonly database: TestDatabase;
  readonly stateDir: string;
  /** The OpenAI-compatible model server (model `openai` only). */
  readonly llm: LlmTestServer;
  /** The API over NATS with the bootstrap (operator) token. */
  readonly api: TalonApiClient;
  /** The database, read directly (option `sql` only). */
  readonly sql: pg.Client;
  readonly orchestrators: readonly StackOrchestrator[];
  /** A worker (or any service) started now with the stack's NATS and state directory. */
  startWorker(name: StackWorker, env?: Record<string, string>): Promise<ServiceProcess>;
  /** Another orchestrator on the same bus, database and state directory. */
  startOrchestrator(instance?: string, env?: Record<string, string>): Promise<StackOrchestrator>;
  /** Waits until the catalog offers every one of `tools`. */
  waitForTools(tools: readonly string[], timeoutMs?: number): Promise<void>;
  /** Waits until `mcp.list` shows the registry server `name`. */
  waitForMcpServer(name: string, timeoutMs?: number): Promise<void>;
  /** Polls `hands.runs.get` until the run is in one of `states`; the error names the last state seen. */
  waitForRun(runId: string, states: readonly string[], timeoutMs?: number): Promise<HandRun>;
  /** Runs the built CLI as the api user with the bootstrap token; its exit code and stdout + stderr. */
  cli(...args: string[]): Promise<{ code: number | null; out: string }>;
  close(): Promise<void>;
}

function required<T>(value: T | undefined, what: string): T {
  if (value === undefined) throw new Error(`The stack was started without ${what}.`);
  return value;
}

/** Starts the stack the options describe (see {@link TalonStackOptions}). */
export async function startTalonStack(options: TalonStackOptions): Promise<TalonStack> {
  const [nats, database, llm] = await Promise.all([
    startNatsTestServer(),
    createTestDatabase(),
    options.model === 'openai' ? startOpenAiCompatibleServer() : Promise.resolve(undefined),
  ]);
  const stateDir = options.stateDir ?? (await mkdtemp(join(tmpdir(), options.name)));
  const processes: ServiceProcess[] = [];
  let api: TalonApiClient | undefined;
  let sql: pg.Client | undefined;
  const close = async () => {
    await api?.close().catch(() => undefined);
    await sql?.end().catch(() => undefined);
    await Promise.all(processes.map((service) => service.kill()));
    await Promise.all([nats.stop(), database.drop(), llm?.close()]);
    await rm(stateDir, { recursive: true, force: true });
  };

  try {
    const base = { NATS_URL: nats.url, TALON_STATE_DIR: stateDir };
    const orchestratorBase: Record<string, string> = { ...base, DATABASE_URL: database.url };
    if (options.hands) {
      const handsDir = join(stateDir, 'hands');
      await mkdir(handsDir, { recursive: true });
      for (const [id, manifest] of Object.entries(options.hands))
        await writeFile(join(handsDir, `${id}.HAND.toml`), manifest);
      orchestratorBase.TALON_HANDS_DIR = handsDir;
    }
    const workerBase: Record<StackWorker, Record<string, string>> = {
      'tool-worker': base,
      'wasm-runner': { ...base, TALON_WORKSPACE_DIR: join(stateDir, 'workspace') },
      'skill-service': { ...base, SKILLS_WORKSPACE_DIR: join(stateDir, 'skills') },
    };
    if (options.mcpServers) {
      // As root the sandbox user must reach the state directory below the temp dir.
      await chmod(stateDir, 0o755);
      const mcpConfig = join(stateDir, 'mcp.json');
      await writeFile(mcpConfig, JSON.stringify(options.mcpServers));
      workerBase['wasm-runner'] = { ...workerBase['wasm-runner'], TALON_MCP_CONFIG: mcpConfig };
    }
    if (options.model === 'openai')
      Object.assign(orchestratorBase, {
        TALON_LLM_PROVIDER: 'openai',
        TALON_LLM_BASE_URL: llm!.baseURL,
        TALON_LLM_API_KEY: 'test-key',
        TALON_LLM_MODEL: 'test-model',
      });
    else if (options.model) {
      const script = join(stateDir, 'script.json');
      await mkdir(dirname(script), { recursive: true });
      await writeFile(script, JSON.stringify(options.model.script));
      Object.assign(orchestratorBase, { TALON_LLM_PROVIDER: 'scripted', TALON_LLM_SCRIPT: script });
    }

    const startWorker = async (name: StackWorker, env: Record<string, string> = {}) => {
      const service = await startServiceProcess(name, { ...workerBase[name], ...env });
      processes.push(service);
      return service;
    };
    const orchestrators: StackOrchestrator[] = [];
    const startOrchestrator = async (instance?: string, env: Record<string, string> = {}) => {
      const httpPort = await findFreePort();
      const service = await startServiceProcess('orchestrator', {
        ...orchestratorBase,
        ...(instance ? { TALON_INSTANCE_ID: instance } : {}),
        TALON_HTTP_PORT: String(httpPort),
        TALON_GRPC_PORT: String(await findFreePort()),
        TALON_SECRETS_KEY: Buffer.alloc(32, 7).toString('base64'),
        ...options.orchestratorEnv,
        ...env,
      });
      processes.push(service);
      const started = { instance, process: service, httpPort };
      orchestrators.push(started);
      return started;
    };

    await Promise.all(
      Object.entries(options.workers ?? {}).map(([name, env]) => startWorker(name as StackWorker, env)),
    );
    for (const instance of options.orchestrators ?? [undefined]) await startOrchestrator(instance);
    api = await connectTalonApi(nats.url);
    if (options.sql) {
      sql = new pg.Client({ connectionString: database.url });
      await sql.connect();
    }
    const client = api;

    const stack: TalonStack = {
      nats,
      database,
      stateDir,
      get llm() {
        return required(llm, 'the OpenAI-compatible model (model: "openai")');
      },
      api: client,
      get sql() {
        return required(sql, 'a database client (sql: true)');
      },
      orchestrators,
      startWorker,
      startOrchestrator,
      async waitForTools(tools, timeoutMs = 30_000) {
        await waitUntil(
          async () => {
            const names = new Set(
              (await client.ok<ToolsListReply>('tools.list', {})).tools.map((tool) => tool.definition.name),
            );
            return tools.every((tool) => names.has(tool));
          },
          timeoutMs,
          `${tools.join(', ')} in the catalog`,
        );
      },
      async waitForMcpServer(name, timeoutMs = 30_000) {
        await waitUntil(
          async () =>
            (await client.ok<McpViewListReply>('mcp.list', {})).servers.some(
              (server) => server.name === name,
            ),
          timeoutMs,
          `the ${name} server listed`,
        );
      },
      async waitForRun(runId, states, timeoutMs = 40_000) {
        let run: HandRun | undefined;
        await waitUntil(
          async () => {
            const reply = await client.call<HandRun>('hands.runs.get', { runId });
            run = reply.ok ? reply.data : undefined;
            return run !== undefined && states.includes(run.state);
          },
          timeoutMs,
          `run ${runId} in ${states.join('|')}`,
          100,
        ).catch((error: Error) => {
          throw new Error(`${error.message}; last: ${JSON.stringify(run)}`);
        });
        return run!;
      },
      cli: (...args) =>
        new Promise((resolve) => {
          const child = spawn(process.execPath, [join(REPO_ROOT, 'apps/cli/dist/main.js'), ...args], {
            env: {
              PATH: process.env.PATH ?? '',
              NATS_URL: nats.url,
              NATS_PASSWORD: nats.credentials.api,
              TALON_TOKEN: nats.bootstrapToken,
            },
          });
          let out = '';
          child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
          child.stderr.on('data', (chunk: Buffer) => (out += chunk.toString()));
          child.on('close', (code) => resolve({ code, out }));
        }),
      close,
    };
    if (options.tools?.length) await stack.waitForTools(options.tools);
    for (const name of options.mcpListed ?? []) await stack.waitForMcpServer(name);
    return stack;
  } catch (error) {
    await close();
    throw error;
  }
}
