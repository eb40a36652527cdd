// The stock NestJS microservice a user would write instead of Talon, as `tsc` would emit it (decorators
// applied by hand: the bench is plain JavaScript). `worker`: @MessagePattern echo. `gateway`: @MessagePattern
// that forwards to the worker through a ClientProxy (ClientsModule, Transport.NATS). No validation.
// `mcp-worker <server script>`: the worker's handler calls `echo` on an MCP server of its own over stdio
// with the SDK client. `wasm-worker <component>`: the worker's handler runs a component in its own thread
// (no worker thread, no limits), its params the message's JSON text. Both answer on the worker's subject.
// Usage: node nest-service.mjs <role> <nats url> [path]; credentials from NATS_USER / NATS_PASSWORD.
import 'reflect-metadata';
import { Controller, Inject, Module } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { ClientsModule, MessagePattern, Transport } from '@nestjs/microservices';

const [role, url, path] = process.argv.slice(2);
const natsOptions = {
  servers: url,
  ...(process.env.NATS_PASSWORD
    ? {
        user: process.env.NATS_USER,
        pass: process.env.NATS_PASSWORD,
        inboxPrefix: process.env.NATS_INBOX_PREFIX,
      }
    : {}),
};
export const WORKER_SUBJECT = 'talon.bench.nest.worker';
export const GATEWAY_SUBJECT = 'talon.bench.nest.gateway';

function messagePattern(target, method, pattern) {
  MessagePattern(pattern)(
    target.prototype,
    method,
    Object.getOwnPropertyDescriptor(target.prototype, method),
  );
}

/** What the worker's handler does with a message: echo it, or call the MCP server or the component. */
async function workerHandler() {
  if (role === 'mcp-worker') {
    const { Client } = await import('@modelcontextprotocol/sdk/client/index.js');
    const { StdioClientTransport } = await import('@modelcontextprotocol/sdk/client/stdio.js');
    const client = new Client({ name: 'nest-bench', version: '1.0.0' });
    await client.connect(
      new StdioClientTransport({ command: process.execPath, args: [path, 'stdio'], stderr: 'ignore' }),
    );
    return (data) => client.callTool({ name: 'echo', arguments: data });
  }
  if (role === 'wasm-worker') {
    const { mkdtempSync, readFileSync, rmSync } = await import('node:fs');
    const { tmpdir } = await import('node:os');
    const { join } = await import('node:path');
    const { instantiateDirect } = await import('./direct-component.mjs');
    const cache = mkdtempSync(join(tmpdir(), 'talon-bench-nest-wasm-'));
    const component = await instantiateDirect(cache, readFileSync(path), 128);
    rmSync(cache, { recursive: true, force: true }); // the instance is made: its compile cache is done with
    return (data) => {
      const result = component.execute({ params: JSON.stringify(data) });
      if (result.error !== undefined) throw new Error(result.error);
      return JSON.parse(result.output);
    };
  }
  return (data) => data;
}
const handle = await workerHandler();

class WorkerController {
  echo(data) {
    return handle(data);
  }
}
Controller()(WorkerController);
messagePattern(WorkerController, 'echo', WORKER_SUBJECT);

class GatewayController {
  constructor(worker) {
    this.worker = worker;
  }
  forward(data) {
    return this.worker.send(WORKER_SUBJECT, data);
  }
}
Inject('WORKER')(GatewayController, undefined, 0);
Reflect.defineMetadata('design:paramtypes', [Object], GatewayController);
Controller()(GatewayController);
messagePattern(GatewayController, 'forward', GATEWAY_SUBJECT);

class WorkerModule {}
Module({ controllers: [WorkerController] })(WorkerModule);
class GatewayModule {}
Module({
  imports: [ClientsModule.register([{ name: 'WORKER', transport: Transport.NATS, options: natsOptions }])],
  controllers: [GatewayController],
})(GatewayModule);

const app = await NestFactory.createMicroservice(role === 'gateway' ? GatewayModule : WorkerModule, {
  transport: Transport.NATS,
  options: natsOptions,
  logger: false,
});
await app.listen();
process.stdout.write('ready\n');
process.on('SIGTERM', () => app.close().then(() => process.exit(0)));
