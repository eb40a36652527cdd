import 'reflect-metadata';
import { Transport } from '@nestjs/microservices';
import { TALON_PROTO_PACKAGE, TALON_PROTO_PATH } from '@talon/contracts';
import { bootstrapService } from '@talon/service-runtime';
import { parseOrchestratorConfig } from './config/orchestrator-config.js';
import { OrchestratorModule } from './orchestrator.module.js';

const config = parseOrchestratorConfig();
const running = await bootstrapService({
  config,
  http: config.http,
  module: (connection, logger) => OrchestratorModule.register(config, connection, logger) as never,
  configure: (app) => {
    (app as import('@nestjs/common').INestApplication).connectMicroservice(
      {
        transport: Transport.GRPC,
        options: {
          package: TALON_PROTO_PACKAGE,
          protoPath: TALON_PROTO_PATH,
          url: `${config.grpc.host}:${config.grpc.port}`,
          loader: { keepCase: true, defaults: true },
          maxReceiveMessageLength: config.maxPayloadBytes * 4,
        },
      },
      { inheritAppConfig: true },
    );
  },
});
running.logger.write('info', 'api listening', {
  nats: 'talon.api.v1.>',
  http: `http://${config.http.host}:${config.http.port}`,
  grpc: `${config.grpc.host}:${config.grpc.port}`,
});
