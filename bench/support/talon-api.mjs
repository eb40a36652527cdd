// The Talon side of a benchmark: `@talon/client` over NATS as the `api` user with the bootstrap token, as
// a caller of a secured deployment would call it (raw NATS baselines keep their own connections).
import { join } from 'node:path';
import { REPO_ROOT } from './processes.mjs';

const { createTalonClient } = await import(join(REPO_ROOT, 'libs/client/dist/index.js'));

/**
 * Connects to the test server's API. `api(method, payload, timeoutMs)` resolves the reply's data or throws
 * the client's TalonError (`code`, message). No retries: a benchmark counts what one call costs.
 */
export async function connectTalonApi(nats) {
  const connection = await nats.connect('api');
  const client = createTalonClient({ nats: connection, token: nats.bootstrapToken, retries: 0 });
  return {
    connection,
    client,
    api: (method, payload = {}, timeoutMs = 30_000) => client.callUnlisted(method, payload, { timeoutMs }),
    close: () => connection.close(),
  };
}
