// Chaos: SIGTERM one instance of each service type in turn while clients keep calling through it.
// Draining (not unsubscribing) means every call routed to a leaving instance is still answered: no call
// is lost and none meets silence (a TIMEOUT); with no instance left a caller gets NO_RESPONDERS at once.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { chmod, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Envelope } from '@talon/contracts';
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

type ServiceName = 'orchestrator' | 'tool-worker' | 'skill-service' | 'wasm-runner';
const ORDER: ServiceName[] = ['tool-worker', 'skill-service', 'wasm-runner', 'orchestrator'];
const CLIENTS = 6;

/** The request a client sends to reach each service type (always through an orchestrator). */
const PROBES: Array<{ method: string; payload: unknown }> = [
  { method: 'tools.call', payload: { tool: 'echo', params: { message: 'r', delayMs: 150 } } },
  { method: 'system.ping', payload: { service: 'skill-service', timeoutMs: 8_000 } },
  { method: 'system.ping', payload: { service: 'wasm-runner', timeoutMs: 8_000 } },
];

function classify(error: unknown): string {
  const text = `${(error as Error)?.name ?? ''} ${(error as Error)?.message ?? ''} ${(error as { code?: string })?.code ?? ''}`;
  if (/no ?responders|503/i.test(text)) return 'NO_RESPONDERS';
  if (/timeout/i.test(text)) return 'SILENT';
  return `THROWN ${text}`;
}

describe('chaos: rolling restart of every service type under load', () => {
  let nats: NatsTestServer;
  let database: TestDatabase;
  let stateDir: string;
  let talon: TalonApiClient;
  const services = new Map<ServiceName, ServiceProcess[]>();

  beforeAll(async () => {
    [nats, database] = await Promise.all([startNatsTestServer(), createTestDatabase()]);
    stateDir = await mkdtemp(join(tmpdir(), 'talon-rolling-'));
    await chmod(stateDir, 0o755);
    const envOf = async (name: ServiceName): Promise<Record<string, string>> => {
      const base = {
        NATS_URL: nats.url,
        TALON_STATE_DIR: join(stateDir, name),
        TALON_DRAIN_TIMEOUT_MS: '10000',
      };
      if (name === 'orchestrator')
        return {
          ...base,
          DATABASE_URL: database.url,
          TALON_HTTP_PORT: String(await findFreePort()),
          TALON_GRPC_PORT: String(await findFreePort()),
        };
      if (name === 'wasm-runner') return { ...base, TALON_WORKSPACE_DIR: join(stateDir, 'workspace') };
      return base;
    };
    // Two waves (one instance of each type, then the second), so eight starts do not share two cores at once.
    const started: Array<readonly [ServiceName, ServiceProcess]> = [];
    for (let wave = 0; wave < 2; wave++)
      started.push(
        ...(await Promise.all(
          ORDER.map(
            async (name) =>
              [name, await startServiceProcess(name, await envOf(name), { timeoutMs: 90_000 })] as const,
          ),
        )),
      );
    for (const [name, process] of started) services.set(name, [...(services.get(name) ?? []), process]);
    talon = await connectTalonApi(nats.url);
    await waitUntil(
      async () => {
        const replies = await Promise.all(
          PROBES.map((probe) => talon.call(probe.method, probe.payload, 5_000).catch(() => undefined)),
        );
        return replies.every((reply) => reply?.ok);
      },
      30_000,
      'every service answering',
    );
  }, 200_000);

  afterAll(async () => {
    await talon?.close();
    await Promise.all([...services.values()].flat().map((service) => service.kill()));
    await nats?.stop();
    await database?.drop();
    if (stateDir) await rm(stateDir, { recursive: true, force: true });
  });

  it('answers every call while one instance of each type drains and exits', async () => {
    const outcomes = new Map<string, number>();
    const count = (outcome: string) => outcomes.set(outcome, (outcomes.get(outcome) ?? 0) + 1);
    let running = true;
    const clients = Array.from({ length: CLIENTS }, async (_, index) => {
      for (let turn = index; running; turn++) {
        const probe = PROBES[turn % PROBES.length]!;
        try {
          const reply: Envelope<unknown> = await talon.call(probe.method, probe.payload, 10_000);
          count(reply.ok ? 'ok' : reply.error.code);
        } catch (error) {
          count(classify(error));
        }
      }
    });
    const exits: Record<string, number | null> = {};
    const drainMs: Record<string, number> = {};
    for (const name of ORDER) {
      await new Promise((resolve) => setTimeout(resolve, 400));
      const leaving = services.get(name)!.shift()!;
      const started = Date.now();
      exits[name] = await leaving.stop('SIGTERM');
      drainMs[name] = Date.now() - started;
    }
    await new Promise((resolve) => setTimeout(resolve, 400));
    running = false;
    await Promise.all(clients);

    // The last skill-service leaves too: a caller now gets NO_RESPONDERS at once, not silence.
    await services.get('skill-service')!.shift()!.stop('SIGTERM');
    const noOne = await talon.call('system.ping', { service: 'skill-service', timeoutMs: 8_000 }, 10_000);
    console.log(
      JSON.stringify({ chaos: 'rolling-sigterm', outcomes: Object.fromEntries(outcomes), exits, drainMs }),
    );
    expect(Object.values(exits)).toEqual([0, 0, 0, 0]);
    expect(outcomes.get('SILENT') ?? 0).toBe(0);
    const notOk = [...outcomes].filter(([outcome]) => outcome !== 'ok');
    expect(notOk).toEqual([]);
    expect(outcomes.get('ok') ?? 0).toBeGreaterThan(ORDER.length * CLIENTS);
    expect(noOne).toMatchObject({ ok: false, error: { code: 'NO_RESPONDERS' } });
  }, 60_000);
});
