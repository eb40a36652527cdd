import { connect, type NatsConnection } from '@nats-io/transport-node';
import { apiSubject } from '@talon/contracts';
import { NatsRequester } from '@talon/service-runtime';

/** An API call over NATS, as the CLI commands make them. */
export type ApiCall = <T>(method: string, payload: unknown) => Promise<T>;

/**
 * Runs `work` with a connection to the Talon API on `NATS_URL` (default 127.0.0.1:4222); prints a hint
 * and returns 1 when NATS cannot be reached, the error's message and 1 when `work` throws.
 */
export async function withTalonApi(
  print: (line: string) => void,
  work: (call: ApiCall, connection: NatsConnection) => Promise<number>,
): Promise<number> {
  const url = process.env.NATS_URL || 'nats://127.0.0.1:4222';
  const connection = await connect({ servers: url, timeout: 2000 }).catch(() => undefined);
  if (!connection) {
    print(`Cannot reach NATS at ${url}. Start Talon with \`pnpm talon up\` first.`);
    return 1;
  }
  const requester = new NatsRequester(connection);
  const call: ApiCall = (method, payload) =>
    requester.request(apiSubject(method), payload, { timeoutMs: 15_000 });
  try {
    return await work(call, connection);
  } catch (error) {
    print((error as Error).message);
    return 1;
  } finally {
    await connection.close();
  }
}
