import type { DynamicModule, INestApplication, INestMicroservice, Type } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import type { NatsConnection } from '@nats-io/transport-node';
import { QUEUE_GROUPS, SUBJECTS, serviceInboxPrefix, type HealthReply } from '@talon/contracts';
import { redactNatsUrl } from './nats-url-redaction.js';
import { watchConnectionStatus } from './nats-status-log.js';
import { connectToNats } from './nats-connection.js';
import { JsonLogger } from './json-logger.js';
import { ServiceHealth } from './service-health.js';
import { TalonNatsServer } from './talon-nats-server.js';
import type { NatsHandlerRegistration } from './nats-handler-registration.js';
import type { ServiceConfig } from './service-config.js';
import { WireExceptionFilter } from './wire-exception-filter.js';
import { startMetricsServer, startTracing, talonMetrics, type MetricsServer } from '@talon/telemetry';

/** A running service: its Nest application, NATS connection and a stop function. */
export interface RunningService<App = INestMicroservice | INestApplication> {
  app: App;
  connection: NatsConnection;
  logger: JsonLogger;
  server: TalonNatsServer;
  /** The `/metrics` listener (`TALON_METRICS_PORT`), when configured. */
  metricsPort?: number;
  stop(): Promise<void>;
}

/** What a service needs to start. */
export interface BootstrapOptions {
  config: ServiceConfig;
  /** Builds the root module once the NATS connection exists (so providers can use it). */
  module: (
    connection: NatsConnection,
    logger: JsonLogger,
  ) => Type<unknown> | DynamicModule | Promise<Type<unknown> | DynamicModule>;
  /** `http` starts a Nest HTTP application with the NATS transport attached (the orchestrator). */
  http?: { port: number; host: string; httpsOptions?: { cert: Buffer; key: Buffer } };
  /** Extra set-up after the app exists and before it listens (e.g. gRPC transport). */
  configure?: (app: INestApplication | INestMicroservice) => void | Promise<void>;
  /** Handlers the NATS server calls without Nest's per-request wrapper (see `NatsHandlerRegistration`). */
  handlers?: (app: INestApplication | INestMicroservice) => readonly NatsHandlerRegistration[];
  /** Extra fields of the health reply (the wasm-runner's sandbox mode, shown in `system.status`). */
  health?: () => Pick<HealthReply, 'sandbox'>;
  /** Install SIGTERM/SIGINT handlers that stop gracefully. Default true. */
  handleSignals?: boolean;
}

/**
 * Starts a Talon service: connect to NATS (bounded retry), build the Nest app with the plain-JSON
 * transport in the service's queue group, answer health, and on SIGTERM drain in-flight requests.
 */
export async function bootstrapService(options: BootstrapOptions): Promise<RunningService> {
  const { config } = options;
  const logger = new JsonLogger({ service: config.service, instanceId: config.instanceId }, config.logLevel);
  // Before anything handles a message: spans of the first request must already be recorded.
  const tracing = await startTracing(config.telemetry.tracing, {
    instanceId: config.instanceId,
    warn: (message, fields) => logger.write('warn', message, fields),
  });
  const metrics = talonMetrics(config.service);
  let connection: NatsConnection;
  try {
    connection = await connectToNats({
      url: config.natsUrl,
      name: config.instanceId,
      auth: config.natsAuth,
      inboxPrefix: serviceInboxPrefix(config.service),
      attempts: config.connectAttempts,
      delayMs: config.connectDelayMs,
      onRetry: (attempt, error) =>
        logger.write('warn', 'NATS not reachable yet, retrying', {
          attempt,
          url: redactNatsUrl(config.natsUrl),
          error: String(error),
        }),
    });
  } catch (error) {
    logger.write('error', (error as Error).message, { code: (error as { code?: string }).code });
    if (options.handleSignals ?? true) process.exit(1);
    throw error;
  }
  // Watched from the start: a permission violation is reported asynchronously, and one caused while the
  // app starts (a subscription its user may not make) would otherwise go unlogged.
  watchConnectionStatus(connection, logger);
  const module = await options.module(connection, logger);
  const server = new TalonNatsServer({
    connection,
    queue: QUEUE_GROUPS[config.service],
    maxPayloadBytes: config.maxPayloadBytes,
    drainTimeoutMs: config.drainTimeoutMs,
    logger,
  });
  // A no-op request through the same path as real handlers: diagnostics, load spreading and benchmarks.
  const pingReply = { service: config.service, instanceId: config.instanceId };
  server.addHandler(SUBJECTS.ping(config.service), async () => pingReply, false);
  let app: INestApplication | INestMicroservice;
  if (options.http) {
    const httpApp = await NestFactory.create(module, {
      logger,
      bodyParser: false,
      abortOnError: false,
      ...(options.http.httpsOptions ? { httpsOptions: options.http.httpsOptions } : {}),
    });
    // Say nothing about the framework (no X-Powered-By).
    (httpApp.getHttpAdapter().getInstance() as { disable?: (name: string) => void }).disable?.(
      'x-powered-by',
    );
    // Filters first: inheritAppConfig copies the app's global filters at connect time.
    httpApp.useGlobalFilters(new WireExceptionFilter());
    httpApp.connectMicroservice({ strategy: server }, { inheritAppConfig: true });
    addHandlers(server, options.handlers?.(httpApp));
    await options.configure?.(httpApp);
    // A hybrid app's transports start before `listen` runs the app's hooks: without this, NATS and gRPC
    // answered while an orchestrator was still registering its bootstrap token (UNAUTHENTICATED for half
    // a second on a fresh PGlite directory).
    await httpApp.init();
    await httpApp.startAllMicroservices();
    await httpApp.listen(options.http.port, options.http.host);
    app = httpApp;
  } else {
    const microservice = await NestFactory.createMicroservice(module, {
      strategy: server,
      logger,
      abortOnError: false,
    });
    microservice.useGlobalFilters(new WireExceptionFilter());
    addHandlers(server, options.handlers?.(microservice));
    await options.configure?.(microservice);
    await microservice.listen();
    app = microservice;
  }
  const health = new ServiceHealth(
    { service: config.service, instanceId: config.instanceId, version: config.version },
    () => server.inFlightCount,
    options.health,
  );
  health.start(connection);
  let metricsServer: MetricsServer | undefined;
  if (config.telemetry.metrics)
    metricsServer = await startMetricsServer(config.telemetry.metrics, metrics.registry);
  logger.write('info', 'ready', {
    ...(metricsServer ? { metricsPort: metricsServer.port } : {}),
    tracing: config.telemetry.tracing ? new URL(config.telemetry.tracing.tracesUrl).host : 'off',
    nats: redactNatsUrl(config.natsUrl),
    user: config.natsAuth.user,
    queue: QUEUE_GROUPS[config.service],
  });

  let stopping: Promise<void> | undefined;
  const stop = () =>
    (stopping ??= (async () => {
      logger.write('info', 'stopping', { inFlight: server.inFlightCount });
      health.stop();
      // Drain the transport before the app's hooks close what in-flight handlers still use.
      await server.close();
      await app.close();
      await connection.drain().catch(() => undefined);
      // Spans of the last requests are exported before the process goes; metrics answer until the end.
      await tracing?.shutdown();
      await metricsServer?.close();
      logger.write('info', 'stopped');
    })());
  if (options.handleSignals ?? true) {
    for (const signal of ['SIGTERM', 'SIGINT'] as const) {
      process.once(signal, () => {
        void stop().then(() => process.exit(0));
      });
    }
  }
  return {
    app,
    connection,
    logger,
    server,
    ...(metricsServer ? { metricsPort: metricsServer.port } : {}),
    stop,
  };
}

/** Registers handlers before the server subscribes (it subscribes to every handler it holds on `listen`). */
function addHandlers(server: TalonNatsServer, handlers: readonly NatsHandlerRegistration[] = []): void {
  for (const { pattern, handler } of handlers) server.addHandler(pattern, handler, false);
}
