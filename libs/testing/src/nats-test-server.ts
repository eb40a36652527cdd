import { spawn, type ChildProcess } from 'node:child_process';
import { createWriteStream, mkdirSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { connect, type NatsConnection } from '@nats-io/transport-node';
import {
  generateApiToken,
  generateNatsCredentials,
  renderNatsServerConfig,
  type NatsCredentials,
} from '@talon/auth';
import { NATS_PERMISSIONS, NATS_USERS, type NatsUser, type ServiceName } from '@talon/contracts';
import { findFreePort } from '@talon/service-runtime';

/** A private nats-server with JetStream and Talon's authorization for one test suite. */
export interface NatsTestServer {
  url: string;
  port: number;
  /** The server process's pid (a new one after {@link restart}), e.g. to read its CPU time. */
  readonly pid: number | undefined;
  /** The password of every Talon NATS user on this server. */
  credentials: NatsCredentials;
  /** An operator token every orchestrator started on this server (through the helpers) accepts. */
  bootstrapToken: string;
  /** NATS_URL, user and password of a service (and the bootstrap token for an orchestrator). */
  envFor(service: ServiceName): Record<string, string>;
  /** A raw connection as one of Talon's NATS users (default `api`). */
  connect(user?: NatsUser): Promise<NatsConnection>;
  /** SIGKILL the server (an outage); its port, config and JetStream dir stay for {@link restart}. */
  kill(): Promise<void>;
  /** Starts the server again (after {@link kill}, or kills it first) on the same port with the same config. */
  restart(): Promise<void>;
  stop(): Promise<void>;
}

/** Options of {@link startNatsTestServer}. */
export interface NatsTestServerOptions {
  /** nats-server's `max_payload`. Default the server's own (1 MiB). */
  maxPayloadBytes?: number;
  /**
   * No authorization at all: only for benchmarks that compare Talon with its front door against Talon
   * without it in the same run. The test suite never uses it.
   */
  withoutAuthorization?: boolean;
}

const servers = new Map<string, NatsTestServer>();

/** The test server that serves `url`, when one was started by this process. */
export function natsTestServerFor(url: string | undefined): NatsTestServer | undefined {
  return url ? servers.get(url) : undefined;
}

/**
 * Starts a real nats-server (from PATH, or /usr/sbin) on a free loopback port with JetStream in a temp
 * dir and the authorization Talon deploys with (one user per service, `api` for callers; the table in
 * `NATS_PERMISSIONS`), so suites run with the bus locked exactly as in production.
 */
export async function startNatsTestServer(options: NatsTestServerOptions = {}): Promise<NatsTestServer> {
  const port = await findFreePort();
  const storeDir = await mkdtemp(join(tmpdir(), 'talon-nats-'));
  const credentials = generateNatsCredentials();
  const configFile = join(storeDir, 'nats-server.conf');
  await writeFile(
    configFile,
    renderNatsServerConfig({
      host: '127.0.0.1',
      port,
      jetStreamDir: storeDir,
      ...(options.maxPayloadBytes ? { maxPayloadBytes: options.maxPayloadBytes } : {}),
      passwords: Object.fromEntries(NATS_USERS.map((user) => [user, { value: credentials[user] }])) as never,
    }),
    { mode: 0o600 },
  );
  const binary = process.env.NATS_SERVER_BIN ?? 'nats-server';
  const args = options.withoutAuthorization
    ? ['-a', '127.0.0.1', '-p', String(port), '-js', '-sd', storeDir]
    : ['-c', configFile];
  let child = await spawnNatsServer(binary, args);
  const url = `nats://127.0.0.1:${port}`;
  const bootstrapToken = generateApiToken().token;
  const server: NatsTestServer = {
    url,
    port,
    get pid() {
      return child.pid;
    },
    credentials,
    bootstrapToken,
    envFor(service): Record<string, string> {
      if (options.withoutAuthorization) return { NATS_URL: url, TALON_AUTH: 'off' };
      return {
        NATS_URL: url,
        NATS_USER: service,
        NATS_PASSWORD: credentials[service],
        ...(service === 'orchestrator' ? { TALON_BOOTSTRAP_TOKEN: bootstrapToken } : {}),
      };
    },
    connect(user = 'api') {
      if (options.withoutAuthorization) return connect({ servers: url });
      return connect({
        servers: url,
        user,
        pass: credentials[user],
        inboxPrefix: NATS_PERMISSIONS[user].inboxPrefix,
      });
    },
    async kill() {
      await stopNatsServer(child, 'SIGKILL');
    },
    async restart() {
      await stopNatsServer(child, 'SIGKILL');
      // The port was ours a moment ago; a quick retry covers the kernel releasing it.
      for (let attempt = 1; ; attempt++) {
        try {
          child = await spawnNatsServer(binary, args);
          return;
        } catch (error) {
          if (attempt >= 5) throw error;
          await new Promise((resolve) => setTimeout(resolve, 200));
        }
      }
    },
    async stop() {
      servers.delete(url);
      await stopNatsServer(child, 'SIGTERM');
      await rm(storeDir, { recursive: true, force: true });
    },
  };
  servers.set(url, server);
  return server;
}

/** Runs nats-server and resolves once it says it is ready. */
async function spawnNatsServer(binary: string, args: string[]): Promise<ChildProcess> {
  const child: ChildProcess = spawn(binary, args, {
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, PATH: `${process.env.PATH ?? ''}:/usr/sbin:/usr/local/sbin` },
  });
  await new Promise<void>((resolve, reject) => {
    let output = '';
    const timer = setTimeout(
      () => reject(new Error(`nats-server did not start in 10 s:\n${output}`)),
      10_000,
    );
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      if (output.includes('Server is ready')) {
        clearTimeout(timer);
        resolve();
      }
    };
    child.stdout?.on('data', onData);
    child.stderr?.on('data', onData);
    child.once('error', (error) => {
      clearTimeout(timer);
      reject(
        new Error(`cannot run ${binary}: ${error.message}. Install it with: apt-get install nats-server`),
      );
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`nats-server exited with ${code}:\n${output}`));
    });
  });
  child.stdout?.removeAllListeners('data').resume();
  child.stderr?.removeAllListeners('data').resume();
  child.removeAllListeners('exit');
  // TALON_TEST_LOG_DIR keeps the server's log (slow consumers, disconnects) beside the services' logs.
  if (process.env.TALON_TEST_LOG_DIR) {
    mkdirSync(process.env.TALON_TEST_LOG_DIR, { recursive: true });
    const sink = createWriteStream(join(process.env.TALON_TEST_LOG_DIR, `nats-server-${child.pid}.log`));
    child.stdout?.pipe(sink);
    child.stderr?.pipe(sink);
  }
  return child;
}

/** Stops a nats-server child with `signal` and waits for it to exit. */
async function stopNatsServer(child: ChildProcess, signal: NodeJS.Signals): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill(signal);
  await exited;
}
