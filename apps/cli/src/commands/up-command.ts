import type { ChildProcess } from 'node:child_process';
import { resolve } from 'node:path';
import { chmodSync, existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  generateNatsCredentials,
  natsPasswordEnvName,
  operatorTokenPath,
  renderNatsServerConfig,
} from '@talon/auth';
import { NATS_USERS } from '@talon/contracts';
import { busStatePath, cliStateDir, readBusState, type BusState } from '../cli-state.js';
import { findFreePort as freePort } from '@talon/service-runtime';
import { findNatsServer, installNatsServer, isListening, launchNatsServer } from '../nats-server-launcher.js';
import { ServiceSupervisor } from '../service-supervisor.js';
import { busyPortProblem } from '../port-check.js';
import { lockStateDir } from '../state-dir-lock.js';

const SERVICES = ['skill-service', 'tool-worker', 'wasm-runner', 'orchestrator'] as const;

/**
 * `talon up`: NATS (started here when none answers), then the four services on embedded defaults
 * (PGlite and a local state directory). Ctrl-C stops everything, services first so they drain.
 */
export async function upCommand(print: (line: string) => void): Promise<number> {
  const stateDir = cliStateDir();
  mkdirSync(stateDir, { recursive: true });
  // Both checks come before anything starts: a second Talon's services would join the first one's queues.
  let releaseStateDir: () => void;
  try {
    releaseStateDir = lockStateDir(stateDir);
  } catch (error) {
    print((error as Error).message);
    return 1;
  }
  const busyPort = await busyPortProblem([
    {
      what: 'HTTP API',
      host: process.env.TALON_HTTP_HOST || '127.0.0.1',
      port: Number(process.env.TALON_HTTP_PORT || 8080),
      variable: 'TALON_HTTP_PORT',
    },
    {
      what: 'gRPC API',
      host: process.env.TALON_GRPC_HOST || '127.0.0.1',
      port: Number(process.env.TALON_GRPC_PORT || 50051),
      variable: 'TALON_GRPC_PORT',
    },
  ]);
  if (busyPort) {
    print(busyPort);
    releaseStateDir();
    return 1;
  }
  const bus = loadOrCreateBusState(stateDir);
  let nats: ChildProcess | undefined;
  let natsUrl: URL;

  if (process.env.NATS_URL) {
    // The operator's own NATS: it must carry Talon's users (see the generated nats-server.conf).
    natsUrl = new URL(process.env.NATS_URL);
    print(`Using the NATS server at ${natsUrl.host} (it needs the users of ${stateDir}/nats-server.conf)`);
    writeNatsConfigForOperator(stateDir);
  } else {
    const natsHost = '127.0.0.1';
    let natsPort = Number(process.env.TALON_NATS_PORT || 4222);
    if (await isListening(natsHost, natsPort)) {
      const busy = natsPort;
      natsPort = await freePort();
      print(
        `Port ${busy} is taken (another NATS?); Talon's private NATS uses ${natsPort} instead (set TALON_NATS_PORT to choose).`,
      );
    }
    natsUrl = new URL(`nats://${natsHost}:${natsPort}`);
    let binary = findNatsServer();
    if (!binary && installNatsServer(print)) binary = findNatsServer();
    if (!binary) {
      print('No NATS server answers and nats-server is not installed.');
      print(
        'Install it (Debian: `sudo apt-get install nats-server`; elsewhere: https://docs.nats.io) or set NATS_URL, then run `pnpm talon up` again.',
      );
      releaseStateDir();
      return 1;
    }
    print(
      `Starting ${binary} with JetStream and authorization on ${natsHost}:${natsPort} (store: ${stateDir}/nats)`,
    );
    nats = await launchNatsServer(binary, natsHost, natsPort, stateDir, bus.credentials);
  }
  saveBusState(stateDir, { url: natsUrl.href.replace(/\/$/, ''), credentials: bus.credentials });

  const env: NodeJS.ProcessEnv = {
    ...process.env,
    NATS_URL: natsUrl.href.replace(/\/$/, ''),
    TALON_STATE_DIR: stateDir,
    TALON_WORKSPACE_DIR: process.env.TALON_WORKSPACE_DIR || resolve(stateDir, 'workspace'),
  };
  // Each service signs in to NATS as itself (the supervisor picks the password per service).
  const supervisor = new ServiceSupervisor(env, print, (service) => ({
    NATS_USER: service,
    NATS_PASSWORD: bus.credentials[service as keyof BusState['credentials']],
  }));
  let stopping = false;
  const stop = async () => {
    if (stopping) return;
    stopping = true;
    print('Stopping Talon…');
    await supervisor.stopAll();
    nats?.kill('SIGTERM');
    releaseStateDir();
    print('Stopped.');
  };
  process.once('SIGINT', () => void stop().then(() => process.exit(0)));
  process.once('SIGTERM', () => void stop().then(() => process.exit(0)));

  try {
    for (const service of SERVICES) await supervisor.start(service);
  } catch (error) {
    print(`Talon did not start: ${(error as Error).message}`);
    await stop();
    return 1;
  }
  const httpPort = env.TALON_HTTP_PORT || '8080';
  const grpcPort = env.TALON_GRPC_PORT || '50051';
  print('');
  print('Talon is up.');
  print(`  NATS API   ${env.NATS_URL}  (subjects talon.api.v1.<method>)`);
  print(`  HTTP API   http://${env.TALON_HTTP_HOST || '127.0.0.1'}:${httpPort}/v1/rpc/<method>`);
  print(
    `  Console    http://${env.TALON_HTTP_HOST || '127.0.0.1'}:${httpPort}/  (log in with the operator token)`,
  );
  print(`  gRPC API   ${env.TALON_GRPC_HOST || '127.0.0.1'}:${grpcPort}  (talon.v1.Talon)`);
  print(`  Database   ${env.DATABASE_URL ? 'PostgreSQL (DATABASE_URL)' : `PGlite in ${stateDir}/pglite`}`);
  print(
    env.TALON_BOOTSTRAP_TOKEN
      ? '  Token      the operator token is TALON_BOOTSTRAP_TOKEN'
      : `  Token      operator token in ${operatorTokenPath(stateDir)} (the CLI reads it; send it as "Authorization: Bearer …")`,
  );
  print(
    `  NATS users ${busStatePath(stateDir)} (api user for your services; never share the service passwords)`,
  );
  print('Try `pnpm talon status` in another terminal. Ctrl-C stops everything.');
  await new Promise(() => undefined);
  return 0;
}

/** The passwords of this state directory's bus, generated on first use. */
function loadOrCreateBusState(stateDir: string): BusState {
  return readBusState(stateDir) ?? { url: '', credentials: generateNatsCredentials() };
}

function saveBusState(stateDir: string, state: BusState): void {
  const path = busStatePath(stateDir);
  writeFileSync(path, JSON.stringify(state, null, 2) + '\n', { mode: 0o600 });
  chmodSync(path, 0o600);
}

/** A config for the operator's own nats-server, with passwords read from the environment. */
function writeNatsConfigForOperator(stateDir: string): void {
  const path = join(stateDir, 'nats-server.conf');
  if (existsSync(path)) return;
  writeFileSync(
    path,
    renderNatsServerConfig({
      passwords: Object.fromEntries(
        NATS_USERS.map((user) => [user, { env: natsPasswordEnvName(user) }]),
      ) as never,
    }),
    { mode: 0o600 },
  );
}
