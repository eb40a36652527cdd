// A call that finds every slot of a worker taken waits in line; the wait ends at the call's deadline (the
// worker answers TIMEOUT) or when the orchestrator cancels the call, and neither ever runs the tool.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { randomUUID } from 'node:crypto';
import type { NatsConnection } from '@nats-io/transport-node';
import { ToolCallRequester } from '@talon/service-runtime';
import { CallAbort } from '@talon/tool-runtime';
import {
  findFreePort,
  startNatsTestServer,
  startServiceProcess,
  type NatsTestServer,
  type ServiceProcess,
} from '@talon/testing';

describe('a tool-worker with every slot taken', () => {
  let nats: NatsTestServer;
  let worker: ServiceProcess;
  let connection: NatsConnection;
  let requester: ToolCallRequester;
  let metricsPort: number;
  /** Calls of `echo` the worker ran to the end (its own metric). */
  const echoRuns = async () => {
    const text = await (await fetch(`http://127.0.0.1:${metricsPort}/metrics`)).text();
    const line = text
      .split('\n')
      .find((row) => row.startsWith('talon_tool_executions_total{tool="echo",code="ok",'));
    return Number(line?.split(' ').pop() ?? 0);
  };

  beforeAll(async () => {
    nats = await startNatsTestServer();
    metricsPort = await findFreePort();
    worker = await startServiceProcess('tool-worker', {
      NATS_URL: nats.url,
      TOOL_WORKER_CONCURRENCY: '1',
      TALON_METRICS_PORT: String(metricsPort),
    });
    connection = await nats.connect('orchestrator');
    requester = new ToolCallRequester(connection);
  }, 60_000);

  afterAll(async () => {
    requester?.stop();
    await connection?.close();
    await worker?.kill();
    await nats?.stop();
  });

  const echo = (message: string, delayMs: number, timeoutMs: number, abort?: CallAbort) =>
    requester.call({
      domain: 'orchestrator',
      request: { callId: randomUUID(), tool: 'echo', params: { message, delayMs }, timeoutMs },
      timeoutMs: timeoutMs + 250,
      ...(abort ? { abort } : {}),
    });

  it('answers TIMEOUT to a call whose deadline passes in line, and cancels one in line, without running either', async () => {
    const holder = echo('holder', 1_500, 5_000);
    await new Promise((resolve) => setTimeout(resolve, 100));
    const started = Date.now();
    const late = echo('late', 0, 300).catch((error: unknown) => error);
    const abort = new CallAbort();
    const cancelled = echo('cancelled', 0, 5_000, abort).catch((error: unknown) => error);
    await new Promise((resolve) => setTimeout(resolve, 100));
    abort.abort(new Error('the caller gave up'));
    expect(await late).toMatchObject({ code: 'TIMEOUT' });
    expect(Date.now() - started).toBeLessThan(1_400);
    expect(String(await cancelled)).toMatch(/the caller gave up/);
    await expect(holder).resolves.toMatchObject({ output: 'holder' });
    // The slot is free again, and the worker ran only the holder and this one: neither waiting call ran.
    await expect(echo('after', 0, 2_000)).resolves.toMatchObject({ output: 'after' });
    expect(await echoRuns()).toBe(2);
  }, 30_000);
});
