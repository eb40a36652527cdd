import { connect, headers, type MsgHdrs, type NatsConnection } from '@nats-io/transport-node';
import { natsTestServerFor } from './nats-test-server.js';

/** NATS headers that carry an API token (`talon-token`). */
export function natsTokenHeaders(token: string): MsgHdrs {
  const result = headers();
  result.set('talon-token', token);
  return result;
}
import type { Envelope, WireError } from '@talon/contracts';

/** A wire error thrown by {@link TalonApiClient.ok}: the envelope's code, message and details on an Error. */
export type TalonApiError = Error & WireError;

/** The orchestrator's NATS API as tests call it: plain JSON over `talon.api.v1.<method>`, like any client. */
export interface TalonApiClient {
  readonly connection: NatsConnection;
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
 * Connects a raw NATS client to the API of the Talon on `natsUrl`, as the `api` NATS user of a test server
 * from {@link startNatsTestServer}, sending its bootstrap operator token (or `options.token`).
 */
export async function connectTalonApi(
  natsUrl: string,
  options: TalonApiClientOptions = {},
): Promise<TalonApiClient> {
  const server = natsTestServerFor(natsUrl);
  const connection = server ? await server.connect('api') : await connect({ servers: natsUrl });
  const token = options.token === undefined ? server?.bootstrapToken : (options.token ?? undefined);
  const call = async <T>(method: string, payload: unknown = {}, timeoutMs = 30_000): Promise<Envelope<T>> => {
    const reply = await connection.request(`talon.api.v1.${method}`, JSON.stringify(payload), {
      timeout: timeoutMs,
      ...(token ? { headers: natsTokenHeaders(token) } : {}),
    });
    return reply.json<Envelope<T>>();
  };
  return {
    connection,
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
