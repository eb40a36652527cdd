// Chaos: SIGKILL a tool-worker that holds calls. Idempotent calls (echo) must finish on the other worker,
// non-idempotent ones (http POST) must fail with WORKER_LOST, both within about a second of the kill
// rather than after the tool's 15 s timeout. Prints the failover figures.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { randomUUID } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { NatsConnection } from '@nats-io/transport-node';
import type { Envelope, ToolsCallReply } from '@talon/contracts';
import { ACK_DELAY_MS } from '@talon/service-runtime';
import {
  connectTalonApi,
  createTestDatabase,
  findFreePort,
  startNatsTestServer,
  startServiceProcess,
  waitUntil,
  type NatsTestServer,
  type ServiceProcess,
  type TalonApiClient,
  type TestDatabase,
} from '@talon/testing';

const ECHO_CALLS = 16;
const POST_CALLS = 6;
// Long enough that, on a loaded CI machine, the victim still holds calls of both kinds when it is killed.
const HOLD_MS = 5_000;

describe('chaos: a tool-worker killed under load', () => {
  let nats: NatsTestServer;
  let database: TestDatabase;
  let orchestrator: ServiceProcess;
  let talon: TalonApiClient;
  let bus: NatsConnection;
  let slow: Server;
  let slowPort: number;
  let workers: ServiceProcess[] = [];

  beforeAll(async () => {
    [nats, database] = await Promise.all([startNatsTestServer(), createTestDatabase()]);
    // A target that holds every request, so a POST stays in flight on its worker.
    slow = createServer((_request, response) => {
      setTimeout(() => response.end('{"ok":true}'), HOLD_MS).unref();
    });
    await new Promise<void>((resolve) => slow.listen(0, '127.0.0.1', resolve));
    slowPort = (slow.address() as { port: number }).port;
    const env = {
      NATS_URL: nats.url,
      TOOL_WORKER_CONCURRENCY: '64',
      TALON_SSRF_ALLOWLIST: `127.0.0.1/32@${slowPort}`,
    };
    [orchestrator, ...workers] = await Promise.all([
      startServiceProcess(
        'orchestrator',
        {
          NATS_URL: nats.url,
          DATABASE_URL: database.url,
          TALON_HTTP_PORT: String(await findFreePort()),
          TALON_GRPC_PORT: String(await findFreePort()),
        },
        { timeoutMs: 90_000 },
      ),
      startServiceProcess('tool-worker', env, { timeoutMs: 90_000 }),
      startServiceProcess('tool-worker', env, { timeoutMs: 90_000 }),
    ]);
    talon = await connectTalonApi(nats.url);
    bus = await nats.connect('orchestrator');
    await waitUntil(
      async () => {
        const reply = await talon.call<{
          tools: Array<{ definition: { name: string }; instances: string[] }>;
        }>('tools.list');
        return (
          reply.ok && reply.data.tools.find((tool) => tool.definition.name === 'echo')?.instances.length === 2
        );
      },
      20_000,
      'both workers in the catalog',
    );
  }, 150_000);

  afterAll(async () => {
    await bus?.close();
    await talon?.close();
    await Promise.all([orchestrator, ...workers].map((service) => service?.kill()));
    slow?.close();
    await nats?.stop();
    await database?.drop();
  });

  it('fails over every call held by the killed worker in about a second, losing none', async () => {
    const ids = await Promise.all(
      workers.map(async (worker) =>
        String((await worker.waitForLog((line) => line.msg === 'ready')).instance),
      ),
    );
    // The victim is whichever worker first holds calls of both kinds (the queue group picks at random).
    let victim: ServiceProcess | undefined;
    let victimId = '';
    const callIds = Array.from({ length: ECHO_CALLS + POST_CALLS }, () => randomUUID());
    const sent = Date.now();
    const echo = callIds
      .slice(0, ECHO_CALLS)
      .map((callId, index) =>
        talon
          .call<ToolsCallReply>(
            'tools.call',
            { tool: 'echo', params: { message: `m${index}`, delayMs: HOLD_MS }, callId },
            30_000,
          )
          .then((reply) => ({ reply, at: Date.now() })),
      );
    const posts = callIds.slice(ECHO_CALLS).map((callId, index) =>
      talon
        .call<ToolsCallReply>(
          'tools.call',
          {
            tool: 'http',
            params: { url: `http://127.0.0.1:${slowPort}/p${index}`, method: 'POST', body: 'x' },
            callId,
          },
          30_000,
        )
        .then((reply) => ({ reply, at: Date.now() })),
    );
    // Kill a worker once it holds calls of both kinds (asked the way the orchestrator's probe asks).
    const holdsBoth = async (id: string): Promise<boolean> => {
      const reply = await bus.request(
        `talon.tools.v1.held.${id.replace(/[^A-Za-z0-9_-]/g, '_')}`,
        JSON.stringify({ callIds }),
        { timeout: 2_000 },
      );
      const held = new Set(
        (reply.json<Envelope<{ held: string[] }>>() as { data: { held: string[] } }).data.held,
      );
      return (
        callIds.slice(0, ECHO_CALLS).some((id) => held.has(id)) &&
        callIds.slice(ECHO_CALLS).some((id) => held.has(id))
      );
    };
    await waitUntil(
      async () => {
        for (const [index, id] of ids.entries())
          if (await holdsBoth(id)) {
            victim = workers[index];
            victimId = id;
            return true;
          }
        return false;
      },
      HOLD_MS - 1_000,
      'a worker holding calls of both kinds',
      25,
    );
    // Calls that arrived in the last ACK_DELAY_MS are not acknowledged yet, and a worker killed before it
    // acknowledges leaves them to the caller's no-ack timeout (5 s, the other path): the poll above finds the
    // victim within milliseconds of the calls' arrival, so it waits for the acknowledgements first.
    await new Promise((resolve) => setTimeout(resolve, ACK_DELAY_MS * 10));
    const killedAt = Date.now();
    await victim!.kill();

    const echoes = await Promise.all(echo);
    const postResults = await Promise.all(posts);
    // Nothing lost: every echo answered, on the survivor when the victim held it.
    const failedEcho = echoes.filter(({ reply }) => !reply.ok);
    expect(failedEcho.map(({ reply }) => (reply as { error: unknown }).error)).toEqual([]);
    const retried = echoes.filter(
      ({ reply }) => (reply as Envelope<ToolsCallReply> & { ok: true }).data.attempts === 2,
    );
    // The echo's own hold is part of its completion time; the failover is what comes on top of the kill.
    const echoFailover = retried.map(({ at }) => at - killedAt - HOLD_MS);
    const lost = postResults.filter(({ reply }) => !reply.ok);
    for (const { reply } of lost) {
      const error = (
        reply as {
          error: { code: string; retryable: boolean; details: { instanceId?: string; reason?: string } };
        }
      ).error;
      expect(error).toMatchObject({ code: 'WORKER_LOST', retryable: true });
      // Lost with the victim after its ack, or (killed between taking the call and acking it) never acked.
      if (error.details.reason === 'no_ack') expect(error.details.instanceId).toBeUndefined();
      else expect(error.details.instanceId).toBe(victimId);
    }
    const postFailover = lost.map(({ at }) => at - killedAt);
    const all = [...echoFailover, ...postFailover].sort((a, b) => a - b);
    console.log(
      JSON.stringify({
        chaos: 'worker-sigkill',
        sentBeforeKillMs: killedAt - sent,
        echoRetried: retried.length,
        echoOk: echoes.length - failedEcho.length,
        postsLost: lost.length,
        postsOk: postResults.length - lost.length,
        failoverP50Ms: all[Math.floor(all.length / 2)] ?? null,
        failoverMaxMs: all.at(-1) ?? null,
        targetMs: 1500,
        toolTimeoutMs: 15_000,
      }),
    );
    // The queue group spreads calls over both workers, so the victim held some of them.
    expect(retried.length + lost.length).toBeGreaterThan(0);
    // Far below the tool's 15 s timeout, which is what a lost call used to wait (the figure above is the measure).
    for (const ms of all) expect(ms).toBeLessThan(5_000);
  }, 60_000);
});
