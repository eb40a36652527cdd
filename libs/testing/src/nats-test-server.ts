import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { findFreePort } from './free-port.js';

/** A private nats-server with JetStream for one test suite. */
export interface NatsTestServer {
  url: string;
  port: number;
  stop(): Promise<void>;
}

/**
 * Starts a real nats-server (from PATH, or /usr/sbin) on a free loopback port with JetStream in a temp
 * dir, so suites are isolated from each other and from a NATS the developer runs on 4222.
 */
export async function startNatsTestServer(): Promise<NatsTestServer> {
  const port = await findFreePort();
  const storeDir = await mkdtemp(join(tmpdir(), 'talon-nats-'));
  const binary = process.env.NATS_SERVER_BIN ?? 'nats-server';
  const child: ChildProcess = spawn(binary, ['-a', '127.0.0.1', '-p', String(port), '-js', '-sd', storeDir], {
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
  return {
    url: `nats://127.0.0.1:${port}`,
    port,
    async stop() {
      if (child.exitCode === null) {
        const exited = new Promise((resolve) => child.once('exit', resolve));
        child.kill('SIGTERM');
        await exited;
      }
      await rm(storeDir, { recursive: true, force: true });
    },
  };
}
