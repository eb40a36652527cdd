// The stock NestJS microservice a user would write instead of Talon, as `tsc` would emit it (decorators
// applied by hand: the bench is plain JavaScript). `worker`: @MessagePattern echo. `gateway`: @MessagePattern
// that forwards to the worker through a ClientProxy (ClientsModule, Transport.NATS). No validation.
// `mcp-worker <server script>` and `wasm-worker <component>`: the worker's handler calls an MCP server or
// runs a component (worker-handler.mjs). Both answer on the worker's subject.
// Usage: node nest-service.mjs <role> <nats url> [path]; credentials from NATS_USER / NATS_PASSWORD.
import 'reflect-metadata';
import { Controller, Inject, Module } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { ClientsModule, MessagePattern, Transport } from '@nestjs/microservices';
import { workerHandler } from './worker-handler.mjs';

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

// The gateway only forwards; a worker's role names its job.
const handle = role === 'gateway' ? undefined : await workerHandler(role === 'worker' ? 'echo' : role, path);

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
