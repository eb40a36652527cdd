import 'reflect-metadata';
import { readFileSync } from 'node:fs';
import { ServerCredentials, type Server } from '@grpc/grpc-js';
import type { PackageDefinition } from '@grpc/proto-loader';
import { ReflectionService } from '@grpc/reflection';
import type { INestApplication } from '@nestjs/common';
import { Transport } from '@nestjs/microservices';
import { TALON_PROTO_PACKAGE, TALON_PROTO_PATH } from '@talon/contracts';
import { openDatabase, redactUrl } from '@talon/persistence';
import { bootstrapService } from '@talon/service-runtime';
import { parseOrchestratorConfig } from './config/orchestrator-config.js';
import { OrchestratorModule } from './orchestrator.module.js';
import { TalonMcpEndpoint } from './mcp/talon-mcp-endpoint.js';
import { httpFrontDoor } from './api/http-front-door.js';
import { ApiAuthenticator } from './auth/api-authenticator.js';
import { ApiRouter } from './api/api-router.js';
import { natsApiHandler } from './api/nats-api-handler.js';
import { consoleStatic } from './console/console-static.js';

const config = parseOrchestratorConfig();
const httpTls = config.auth.httpTls;
const running = await bootstrapService({
  config,
  http: {
    ...config.http,
    ...(httpTls
      ? { httpsOptions: { cert: readFileSync(httpTls.certFile), key: readFileSync(httpTls.keyFile) } }
      : {}),
  },
  module: async (connection, logger) => {
    const databaseConfig = config.database;
    const started = performance.now();
    const where = databaseConfig.kind === 'postgres' ? redactUrl(databaseConfig.url) : databaseConfig.dataDir;
    // A line before the wait, so `talon up` shows what it waits for (PGlite's first start migrates).
    logger.write('info', 'opening the database', {
      kind: databaseConfig.kind,
      where,
      ...(databaseConfig.kind === 'postgres' ? {} : { note: 'the embedded PGlite takes a few seconds' }),
    });
    const database = await openDatabase(databaseConfig, {
      log: (level, message, fields) => logger.write(level, message, fields),
    });
    logger.write('info', 'database ready', {
      kind: databaseConfig.kind,
      where,
      ...(databaseConfig.kind === 'pglite' ? { thread: databaseConfig.thread === true } : {}),
      ms: Math.round(performance.now() - started),
    });
    return OrchestratorModule.register(config, connection, logger, database);
  },
  handlers: (app) => [natsApiHandler(app.get(ApiRouter), app.get(ApiAuthenticator))],
  configure: (app) => {
    // The front door first: Host, Origin, media type and token checks for every route, /mcp included.
    (app as INestApplication).use(httpFrontDoor(config.auth, app.get(ApiAuthenticator)));
    // The web console at / (static files, after the front door's Host and Origin checks).
    (app as INestApplication).use(consoleStatic(config.consoleDir));
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
          // Server reflection, so grpcurl-style tools list the services and messages without the proto.
          onLoadPackageDefinition: (pkg: PackageDefinition, server: Pick<Server, 'addService'>) =>
            new ReflectionService(pkg).addToServer(server),
          maxReceiveMessageLength: config.maxPayloadBytes * 4,
          ...(config.auth.grpcTls
            ? {
                credentials: ServerCredentials.createSsl(null, [
                  {
                    cert_chain: readFileSync(config.auth.grpcTls.certFile),
                    private_key: readFileSync(config.auth.grpcTls.keyFile),
                  },
                ]),
              }
            : {}),
        },
      },
      { inheritAppConfig: true },
    );
  },
});
running.logger.write('info', 'api listening', {
  nats: 'talon.api.v1.>',
  http: `${httpTls ? 'https' : 'http'}://${config.http.host}:${config.http.port}`,
  auth: config.auth.enabled ? 'tokens' : 'OFF',
  grpc: `${config.grpc.host}:${config.grpc.port}`,
});
