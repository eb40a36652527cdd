/**
 * What the turn-ownership chaos tests share: a secured NATS server, a PostgreSQL database, the scripted
 * OpenAI-compatible model server, a wasm-runner (the shell), and orchestrators started and killed as
 * real processes; a recorder of a session's events; the database read directly for the checks.
 */
import { chmod, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { setTimeout as sleep } from 'node:timers/promises';
import pg from 'pg';
import type { ChatEvent } from '@talon/contracts';
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

const CLOCK_SKEW = pathToFileURL(join(REPO_ROOT, 'test', 'chaos', 'support', 'clock-skew.mjs')).href;

/** An orchestrator process and its HTTP port. */
export interface Orchestrator {
  readonly name: string;
  readonly process: ServiceProcess;
  readonly httpPort: number;
}

/** A session's events as they arrive, with the arrival time. */
export interface EventRecorder {
  readonly events: Array<ChatEvent & { receivedAt: number }>;
  waitFor(
    predicate: (event: ChatEvent) => boolean,
    what: string,
    timeoutMs?: number,
  ): Promise<ChatEvent & { receivedAt: number }>;
  stop(): Promise<void>;
}

export interface TurnStack {
  readonly nats: NatsTestServer;
  readonly llm: LlmTestServer;
  readonly api: TalonApiClient;
  readonly db: pg.Client;
  readonly workspace: string;
  /** Starts an orchestrator; `clockSkewMs` shifts its clock. */
  startOrchestrator(name: string, clockSkewMs?: number): Promise<Orchestrator>;
  record(sessionId: string): EventRecorder;
  /** Waits until the catalog offers `tool`. */
  waitForTool(tool: string): Promise<void>;
  close(): Promise<void>;
}

export async function startTurnStack(turnLeaseMs: number): Promise<TurnStack> {
  const [nats, database, llm] = await Promise.all([
    startNatsTestServer(),
    createTestDatabase('talon_chaos'),
    startOpenAiCompatibleServer(),
  ]);
  const stateDir = await mkdtemp(join(tmpdir(), 'talon-chaos-turns-'));
  // mkdtemp makes it 0700: the sandbox user (Talon runs as root here) must be able to enter it.
  await chmod(stateDir, 0o755);
  const workspace = join(stateDir, 'workspace');
  const processes: ServiceProcess[] = [];
  processes.push(
    await startServiceProcess('wasm-runner', {
      NATS_URL: nats.url,
      TALON_STATE_DIR: stateDir,
      TALON_WORKSPACE_DIR: workspace,
    }),
  );
  const api = await connectTalonApi(nats.url);
  const db = new pg.Client({ connectionString: (database as TestDatabase).url });
  await db.connect();
  return {
    nats,
    llm,
    api,
    db,
    workspace,
    async startOrchestrator(name, clockSkewMs = 0) {
      const httpPort = await findFreePort();
      const process = await startServiceProcess('orchestrator', {
        NATS_URL: nats.url,
        DATABASE_URL: database.url,
        TALON_INSTANCE_ID: name,
        TALON_STATE_DIR: stateDir,
        TALON_HTTP_PORT: String(httpPort),
        TALON_GRPC_PORT: String(await findFreePort()),
        TALON_SECRETS_KEY: Buffer.alloc(32, 7).toString('base64'),
        TALON_LLM_PROVIDER: 'openai',
        TALON_LLM_BASE_URL: llm.baseURL,
        TALON_LLM_API_KEY: 'test-key',
        TALON_LLM_MODEL: 'test-model',
        TALON_APPROVAL_TIMEOUT_MS: '120000',
        TALON_TURN_LEASE_MS: String(turnLeaseMs),
        ...(clockSkewMs === 0
          ? {}
          : { NODE_OPTIONS: `--import=${CLOCK_SKEW}`, TALON_TEST_CLOCK_SKEW_MS: String(clockSkewMs) }),
      });
      processes.push(process);
      return { name, process, httpPort };
    },
    record(sessionId) {
      const events: Array<ChatEvent & { receivedAt: number }> = [];
      const subscription = api.connection.subscribe(`talon.events.v1.session.${sessionId}`, {
        callback: (_error, message) =>
          void events.push({ ...message.json<ChatEvent>(), receivedAt: performance.now() }),
      });
      return {
        events,
        async waitFor(predicate, what, timeoutMs = 30_000) {
          const started = Date.now();
          for (;;) {
            const found = events.find(predicate);
            if (found) return found;
            if (Date.now() - started > timeoutMs)
              throw new Error(`${what} not seen; events: ${events.map((event) => event.type).join(', ')}`);
            await sleep(20);
          }
        },
        stop: () => subscription.drain(),
      };
    },
    async waitForTool(tool) {
      await waitUntil(
        async () =>
          (await api.ok<{ tools: Array<{ definition: { name: string } }> }>('tools.list', {})).tools.some(
            (entry) => entry.definition.name === tool,
          ),
        30_000,
        `${tool} in the catalog`,
      );
    },
    async close() {
      await api.close().catch(() => undefined);
      await db.end().catch(() => undefined);
      await Promise.all(processes.map((process) => process.kill()));
      await Promise.all([nats.stop(), database.drop(), llm.close()]);
      await rm(stateDir, { recursive: true, force: true });
    },
  };
}

/** Every tool call of a session's stored messages has exactly one result (what the model APIs require). */
export async function unansweredCalls(db: pg.Client, sessionId: string): Promise<string[]> {
  const { rows } = await db.query<{ content: { message: Record<string, unknown> } }>(
    'SELECT content FROM message WHERE session_id = $1 ORDER BY seq',
    [sessionId],
  );
  const open = new Map<string, number>();
  for (const { content } of rows) {
    const message = content.message as {
      role: string;
      toolCalls?: Array<{ id: string }>;
      toolCallId?: string;
    };
    for (const call of message.toolCalls ?? []) open.set(call.id, 0);
    if (message.role === 'tool') open.set(message.toolCallId!, (open.get(message.toolCallId!) ?? -1) + 1);
  }
  return [...open.entries()].filter(([, results]) => results !== 1).map(([id]) => id);
}

/** The median of some numbers. */
export function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}
