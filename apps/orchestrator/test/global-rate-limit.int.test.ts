import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import {
  bearerHeaders,
  createTestDatabase,
  findFreePort,
  startNatsTestServer,
  startServiceProcess,
  type NatsTestServer,
  type ServiceProcess,
  type TestDatabase,
} from '@talon/testing';

// A window long enough that every call of the test falls in the first one, even on a loaded machine.
const LIMIT = { calls: 40, perMs: 60_000 };
const CALLS_PER_ORCHESTRATOR = 60;

interface Outcome {
  status: number;
  code?: string;
  retryAfterMs?: number;
}

describe('a tool rate limit holds across two orchestrators sharing PostgreSQL', () => {
  let nats: NatsTestServer;
  let database: TestDatabase;
  let worker: ServiceProcess;
  const orchestrators: Array<{ process: ServiceProcess; url: string; port: number }> = [];

  async function startOrchestrator(instance: string) {
    const port = await findFreePort();
    const process = await startServiceProcess('orchestrator', {
      NATS_URL: nats.url,
      DATABASE_URL: database.url,
      TALON_INSTANCE_ID: instance,
      TALON_HTTP_PORT: String(port),
      TALON_GRPC_PORT: String(await findFreePort()),
      TALON_SECRETS_KEY: Buffer.alloc(32, 7).toString('base64'),
      TALON_RATE_LIMITS: JSON.stringify({
        echo: { ...LIMIT, scope: 'tool' },
        time: { calls: 3, perMs: 60_000, scope: 'session' },
      }),
    });
    return { process, url: `http://127.0.0.1:${port}`, port };
  }

  async function rpc(target: { url: string; port: number }, method: string, payload: unknown) {
    const response = await fetch(`${target.url}/v1/rpc/${method}`, {
      method: 'POST',
      headers: bearerHeaders(nats.bootstrapToken, {
        'content-type': 'application/json',
        host: `127.0.0.1:${target.port}`,
      }),
      body: JSON.stringify(payload),
    });
    return {
      response,
      body: (await response.json()) as {
        data?: { id?: string; session?: { id: string } };
        error?: { code: string; details?: { retryAfterMs?: number } };
      },
    };
  }

  async function call(
    target: { url: string; port: number },
    tool: string,
    params: unknown,
    sessionId?: string,
  ): Promise<Outcome> {
    const { response, body } = await rpc(target, 'tools.call', {
      tool,
      params,
      ...(sessionId ? { sessionId } : {}),
    });
    return {
      status: response.status,
      ...(body.error ? { code: body.error.code, retryAfterMs: body.error.details?.retryAfterMs } : {}),
    };
  }

  beforeAll(async () => {
    [nats, database] = await Promise.all([startNatsTestServer(), createTestDatabase()]);
    // The first start migrates; the second then starts on the migrated database.
    orchestrators.push(await startOrchestrator('orch-a'));
    orchestrators.push(await startOrchestrator('orch-b'));
    worker = await startServiceProcess('tool-worker', { NATS_URL: nats.url });
  }, 120_000);

  afterAll(async () => {
    await Promise.all(orchestrators.map((orchestrator) => orchestrator.process.kill()));
    await worker?.kill();
    await Promise.all([nats?.stop(), database?.drop()]);
  });

  it('admits the limit once in total, not once per orchestrator, and refuses the rest with RATE_LIMITED and a retry-after', async () => {
    // Both orchestrators are driven at once, 8 calls in flight each, each half straight to its own HTTP port.
    const outcomes: Outcome[][] = await Promise.all(
      orchestrators.map(async (orchestrator) => {
        const results: Outcome[] = [];
        let next = 0;
        await Promise.all(
          Array.from({ length: 8 }, async () => {
            while (next < CALLS_PER_ORCHESTRATOR) {
              next += 1;
              results.push(await call(orchestrator, 'echo', { message: 'hi' }));
            }
          }),
        );
        return results;
      }),
    );
    const admitted = outcomes.map((results) => results.filter((outcome) => outcome.status === 200).length);
    const refused = outcomes.flat().filter((outcome) => outcome.status !== 200);
    const total = admitted[0]! + admitted[1]!;
    console.log(
      `global rate limit ${LIMIT.calls}/${LIMIT.perMs} ms over 2 orchestrators: admitted ${admitted.join(' + ')} = ${total} of ${2 * CALLS_PER_ORCHESTRATOR}`,
    );
    // Never above the limit; leased calls a process could not use are the only shortfall (≤ lease − 1 each).
    expect(total).toBeLessThanOrEqual(LIMIT.calls);
    expect(total).toBeGreaterThanOrEqual(LIMIT.calls - 2);
    // Each orchestrator alone would have admitted its own 40 of its 60 calls.
    expect(admitted[0]).toBeGreaterThan(0);
    expect(admitted[1]).toBeGreaterThan(0);
    expect(refused.length).toBe(2 * CALLS_PER_ORCHESTRATOR - total);
    for (const outcome of refused) {
      expect(outcome).toMatchObject({ status: 429, code: 'RATE_LIMITED' });
      expect(outcome.retryAfterMs).toBeGreaterThan(0);
      expect(outcome.retryAfterMs).toBeLessThanOrEqual(LIMIT.perMs);
    }
  });

  it('counts a per-session limit per session across orchestrators', async () => {
    const [a, b] = orchestrators;
    const sessionOf = async () => {
      const { body } = await rpc(a!, 'sessions.create', {});
      return body.data?.session?.id ?? body.data?.id ?? '';
    };
    const [one, two] = [await sessionOf(), await sessionOf()];
    const now = { operation: 'now' };
    const first = [
      await call(a!, 'time', now, one),
      await call(b!, 'time', now, one),
      await call(a!, 'time', now, one),
      await call(b!, 'time', now, one),
    ];
    expect(first.map((outcome) => outcome.status)).toEqual([200, 200, 200, 429]);
    expect(first[3]).toMatchObject({ code: 'RATE_LIMITED' });
    // Another session has its own count.
    expect((await call(b!, 'time', now, two)).status).toBe(200);
  });
});
