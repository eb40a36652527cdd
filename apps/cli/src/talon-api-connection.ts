import { connect, type NatsConnection } from '@nats-io/transport-node';
import { operatorTokenPath } from '@talon/auth';
import { createTalonClient, type TalonClient } from '@talon/client';
import { readFileSync } from 'node:fs';
import { cliStateDir, readBusState } from './cli-state.js';

/** The orchestrator's API as the CLI calls it: NATS as the `api` user, with the caller's token. */
export interface TalonApiConnection {
  url: string;
  connection: NatsConnection;
  /** `@talon/client` on this connection with the caller's token. */
  client: TalonClient;
  token: string | undefined;
  /**
   * Any API method through {@link client}: the reply's data, or a TalonError whose message is the server's
   * (what the commands print). Default timeout 10 s.
   */
  call<T>(method: string, payload: unknown, timeoutMs?: number): Promise<T>;
  close(): Promise<void>;
}

function readToken(path: string): string | undefined {
  try {
    return readFileSync(path, 'utf8').trim() || undefined;
  } catch {
    return undefined;
  }
}

/**
 * Connects the way a person expects with no extra step: NATS URL and the `api` password from the
 * environment (`NATS_URL`, `NATS_USER`, `NATS_PASSWORD`) or from what `talon up` wrote to the state
 * directory; the token from `TALON_TOKEN`, `TALON_BOOTSTRAP_TOKEN` (inside a compose container) or the state
 * directory's `operator.token`. Throws an Error whose
 * message says what to do.
 */
export async function connectTalonApiFromCli(
  name: string,
  env: NodeJS.ProcessEnv = process.env,
): Promise<TalonApiConnection> {
  const stateDir = cliStateDir(env);
  const bus = readBusState(stateDir);
  const url = env.NATS_URL || bus?.url || 'nats://127.0.0.1:4222';
  const user = env.NATS_USER || 'api';
  const pass = env.NATS_PASSWORD || (url === bus?.url ? bus?.credentials.api : undefined);
  let connection: NatsConnection;
  try {
    connection = await connect({ servers: url, timeout: 2000, name, ...(pass ? { user, pass } : {}) });
  } catch (error) {
    const text = String((error as Error).message ?? error).toLowerCase();
    if (text.includes('authorization') || text.includes('authentication'))
      throw new Error(
        `NATS at ${url} refused the ${pass ? `credentials of "${user}"` : 'connection without credentials'}. Run \`pnpm talon up\` (it writes them to ${stateDir}) or set NATS_USER and NATS_PASSWORD.`,
        { cause: error },
      );
    throw new Error(`Cannot reach NATS at ${url}. Is Talon running? Start it with \`pnpm talon up\`.`, {
      cause: error,
    });
  }
  const token = env.TALON_TOKEN || env.TALON_BOOTSTRAP_TOKEN || readToken(operatorTokenPath(stateDir));
  // A person waits at the prompt: one retry at most, and only of idempotent methods (the client's rule).
  const client = createTalonClient({ nats: connection, retries: 1, ...(token ? { token } : {}) });
  return {
    url,
    connection,
    client,
    token,
    call: async <T>(method: string, payload: unknown, timeoutMs = 10_000) =>
      (await client.callUnlisted(method, payload, { timeoutMs })) as T,
    close: () => connection.close(),
  };
}

/** An API call as the CLI commands make them. */
export type ApiCall = <T>(method: string, payload: unknown) => Promise<T>;

/**
 * Runs `work` with a connection to the Talon API (see {@link connectTalonApiFromCli}); prints what to do
 * and returns 1 when it cannot connect, the error's message and 1 when `work` throws.
 */
export async function withTalonApi(
  print: (line: string) => void,
  work: (call: ApiCall, connection: NatsConnection) => Promise<number>,
): Promise<number> {
  let api: TalonApiConnection;
  try {
    api = await connectTalonApiFromCli('talon-cli');
  } catch (error) {
    print((error as Error).message);
    return 1;
  }
  const call: ApiCall = (method, payload) => api.call(method, payload, 15_000);
  try {
    return await work(call, api.connection);
  } catch (error) {
    print((error as Error).message);
    return 1;
  } finally {
    await api.close();
  }
}
