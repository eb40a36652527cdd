import { connect, headers, type MsgHdrs, type NatsConnection } from '@nats-io/transport-node';
import { createTalonClient, TalonError, type TalonClient } from '@talon/client';
import type { Envelope, WireError } from '@talon/contracts';
import { natsTestServerFor } from './nats-test-server.js';

/** NATS headers that carry an API token (`talon-token`). */
export function natsTokenHeaders(token: string): MsgHdrs {
  const result = headers();
  result.set('talon-token', token);
  return result;
}

/** A wire error thrown by {@link TalonApiClient.ok}: the envelope's code, message and details on an Error. */
export type TalonApiError = Error & WireError;

/**
 * The orchestrator's NATS API as tests call it: `@talon/client` over the `api` user, plus the raw envelope
 * for tests that assert on errors.
 */
export interface TalonApiClient {
  readonly connection: NatsConnection;
  /** The typed client on the same connection and token (`api.client.tools.call(...)`). */
  readonly client: TalonClient;
  /** The raw envelope (for asserting on errors). */
  call<T>(method: string, payload?: unknown, timeoutMs?: number): Promise<Envelope<T>>;
  /** The data of a successful reply; an error envelope is thrown as a {@link TalonApiError}. */
  ok<T>(method: string, payload?: unknown, timeoutMs?: number): Promise<T>;
  close(): Promise<void>;
}

/** Options of {@link connectTalonApi}. */
export interface TalonApiClientOptions {
  /** The API token sent in the `talon-token` header. Default: the test server's bootstrap operator token. */
  token?: string | null;
}

/**
 * Connects `@talon/client` to the API of the Talon on `natsUrl`, as the `api` NATS user of a test server
 * from {@link startNatsTestServer}, sending its bootstrap operator token (or `options.token`). Calls are
 * never retried here, so a test sees each reply as the server sent it.
 */
export async function connectTalonApi(
  natsUrl: string,
  options: TalonApiClientOptions = {},
): Promise<TalonApiClient> {
  const server = natsTestServerFor(natsUrl);
  const connection = server ? await server.connect('api') : await connect({ servers: natsUrl });
  const token = options.token === undefined ? server?.bootstrapToken : (options.token ?? undefined);
  const client = createTalonClient({ nats: connection, retries: 0, ...(token ? { token } : {}) });
  const call = async <T>(method: string, payload: unknown = {}, timeoutMs = 30_000): Promise<Envelope<T>> => {
    try {
      return { ok: true, data: (await client.callUnlisted(method, payload, { timeoutMs })) as T };
    } catch (error) {
      if (TalonError.isInstance(error) && error.wire) return { ok: false, error: error.wire };
      throw error;
    }
  };
  return {
    connection,
    client,
    call,
    async ok<T>(method: string, payload?: unknown, timeoutMs?: number): Promise<T> {
      const reply = await call<T>(method, payload, timeoutMs);
      if (!reply.ok)
        throw Object.assign(new Error(`${method}: ${reply.error.code} ${reply.error.message}`), reply.error);
      return reply.data;
    },
    close: () => connection.close(),
  };
}
