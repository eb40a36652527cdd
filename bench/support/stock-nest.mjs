// The stock NestJS two-hop service of the benchmarks (nest-service.mjs) as a benchmark starts and calls it:
// a worker in the given role and a gateway in front of it, on a private nats-server with the orchestrator's
// credentials, and a ClientProxy that sends to the gateway.
import { join } from 'node:path';
import { rawCredentials, REPO_ROOT, startScript } from './processes.mjs';

/**
 * Starts the worker (`role`: worker, mcp-worker or wasm-worker; `args` after the NATS URL) and the gateway,
 * and connects a client. `call(data)` resolves with the worker's answer; `pids` names both processes.
 */
export async function startStockNest(nats, role = 'worker', ...args) {
  const credentials = rawCredentials(nats);
  // BENCH_NEST_NODE_OPTIONS gives the stock service Node flags too (say, the orchestrator's young generation).
  const nodeOptions = process.env.BENCH_NEST_NODE_OPTIONS;
  const env = nodeOptions ? { ...credentials, NODE_OPTIONS: nodeOptions } : credentials;
  const start = (...argv) => startScript(join(REPO_ROOT, 'bench/support/nest-service.mjs'), argv, env);
  const worker = await start(role, nats.url, ...args);
  const gateway = await start('gateway', nats.url);
  const { ClientProxyFactory, Transport } = await import('@nestjs/microservices');
  const { firstValueFrom } = await import('rxjs');
  const client = ClientProxyFactory.create({
    transport: Transport.NATS,
    options: {
      servers: nats.url,
      user: credentials.NATS_USER,
      pass: credentials.NATS_PASSWORD,
      inboxPrefix: credentials.NATS_INBOX_PREFIX,
    },
  });
  await client.connect();
  return {
    pids: { gateway: gateway.pid, worker: worker.pid },
    call: (data) => firstValueFrom(client.send('talon.bench.nest.gateway', data)),
    async stop() {
      await client.close();
      for (const child of [gateway, worker]) child.kill('SIGTERM');
    },
  };
}
