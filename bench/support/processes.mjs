// Starting real processes for benchmarks: a private nats-server and the built services.
import { spawn } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const REPO_ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
export const testing = await import(join(REPO_ROOT, 'libs/testing/dist/index.js'));

/** Starts a node script and resolves when it prints `ready`; `env` adds to the environment (credentials). */
export function startScript(script, args, env = {}) {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [script, ...args], {
      cwd: REPO_ROOT,
      env: { ...process.env, ...env },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    child.stdout.on('data', (chunk) => {
      if (chunk.toString().includes('ready')) resolve(child);
    });
    child.once('exit', (code) => reject(new Error(`${script} exited with ${code}`)));
  });
}

/** NATS_USER / NATS_PASSWORD of the orchestrator's user on a test server (raw baselines use `talon.bench.>`). */
export function rawCredentials(nats) {
  return {
    NATS_USER: 'orchestrator',
    NATS_PASSWORD: nats.credentials?.orchestrator ?? '',
    NATS_INBOX_PREFIX: '_INBOX_orchestrator',
  };
}
