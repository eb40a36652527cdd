import 'reflect-metadata';
import type { INestApplication } from '@nestjs/common';
import { Transport } from '@nestjs/microservices';
import { TALON_PROTO_PACKAGE, TALON_PROTO_PATH } from '@talon/contracts';
import { openDatabase, parseDatabaseConfig, redactUrl } from '@talon/persistence';
import { bootstrapService } from '@talon/service-runtime';
import { parseOrchestratorConfig } from './config/orchestrator-config.js';
import { OrchestratorModule } from './orchestrator.module.js';
import { TalonMcpEndpoint } from './mcp/talon-mcp-endpoint.js';

const config = parseOrchestratorConfig();
const running = await bootstrapService({
  config,
  http: config.http,
  module: async (connection, logger) => {
    const databaseConfig = parseDatabaseConfig(process.env);
    const started = performance.now();
    const database = await openDatabase(databaseConfig);
    logger.write('info', 'database ready', {
      kind: databaseConfig.kind,
      where: databaseConfig.kind === 'postgres' ? redactUrl(databaseConfig.url) : databaseConfig.dataDir,
      ms: Math.round(performance.now() - started),
    });
    return OrchestratorModule.register(config, connection, logger, database);
  },
  configure: (app) => {
    // Talon's own MCP endpoint at /mcp, ahead of Nest's routes (raw body, streamed replies).
    (app as INestApplication).use(app.get(TalonMcpEndpoint).middleware);
    (app as INestApplication).connectMicroservice(
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
