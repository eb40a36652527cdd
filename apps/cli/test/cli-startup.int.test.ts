import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { spawn, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { REPO_ROOT } from '@talon/testing';

const MAIN = join(REPO_ROOT, 'apps/cli/dist/main.js');
const talon = (args: string[], env: NodeJS.ProcessEnv = {}) =>
  spawnSync(process.execPath, [MAIN, ...args], {
    encoding: 'utf8',
    timeout: 30_000,
    env: { PATH: process.env.PATH ?? '', ...env },
  });

describe('the talon CLI before anything runs', () => {
  let stateDir: string;
  beforeAll(async () => {
    stateDir = await mkdtemp(join(tmpdir(), 'talon-startup-'));
  });
  afterAll(async () => {
    await rm(stateDir, { recursive: true, force: true });
  });

  it('lists every command and flag with --help, and one command with <command> --help', () => {
    for (const args of [['--help'], ['-h'], ['help'], []]) {
      const list = talon(args);
      expect(list.status).toBe(0);
      for (const command of [
        'up',
        'status',
        'chat',
        'secret',
        'token',
        'hands',
        'jobs',
        'routines',
        'sessions',
      ])
        expect(list.stdout).toMatch(new RegExp(`^  ${command} +\\S`, 'm'));
    }
    const secret = talon(['secret', '--help']);
    expect(secret.status).toBe(0);
    expect(secret.stdout).toContain('pnpm talon secret set <NAME> [--host <pattern>]');
    expect(secret.stdout).toContain('TALON_TOKEN');
    const up = talon(['help', 'up']);
    expect(up.stdout).toContain('TALON_HTTP_PORT');
    // Help never runs the command: `secret set X --help` must not wait for a value on stdin.
    expect(talon(['secret', 'set', 'X', '--help']).stdout).toContain('Usage:');
    const unknown = talon(['deploy']);
    expect(unknown.status).toBe(2);
    expect(unknown.stdout).toMatch(/^Unknown command "deploy"\.\n\nUsage: pnpm talon <command>/);
  });

  it('talon up refuses in one line when another Talon holds the state directory, before starting anything', async () => {
    // A live process stands in for the first `talon up`.
    const holder = spawn(process.execPath, ['-e', 'setInterval(() => {}, 1000)'], { stdio: 'ignore' });
    try {
      await writeFile(join(stateDir, 'talon-up.pid'), `${holder.pid}\n`);
      const up = talon(['up'], { TALON_STATE_DIR: stateDir, TALON_HTTP_PORT: '0', TALON_GRPC_PORT: '0' });
      expect(up.status).toBe(1);
      expect(up.stdout.trim()).toBe(
        `Another Talon (pid ${holder.pid}) is running on ${stateDir}: use that one (pnpm talon status), stop it (Ctrl-C in its terminal), or set TALON_STATE_DIR to another directory.`,
      );
      expect(existsSync(join(stateDir, 'nats-credentials.json'))).toBe(false);
    } finally {
      holder.kill('SIGKILL');
      await rm(join(stateDir, 'talon-up.pid'), { force: true });
    }
  });

  it('talon up names the variable to set when its HTTP port is taken, and starts nothing', async () => {
    const busy: Server = createServer();
    await new Promise<void>((resolve) => busy.listen(0, '127.0.0.1', resolve));
    const port = (busy.address() as { port: number }).port;
    try {
      const up = talon(['up'], {
        TALON_STATE_DIR: stateDir,
        TALON_HTTP_PORT: String(port),
        TALON_GRPC_PORT: '0',
      });
      expect(up.status).toBe(1);
      expect(up.stdout.trim()).toBe(
        `Port ${port} (HTTP API) on 127.0.0.1 is in use: stop what listens there, or set TALON_HTTP_PORT to a free port (e.g. TALON_HTTP_PORT=${port + 1} pnpm talon up).`,
      );
      expect(up.stderr).toBe('');
      expect(existsSync(join(stateDir, 'nats-credentials.json'))).toBe(false);
      // The refusal let go of the state directory.
      expect(existsSync(join(stateDir, 'talon-up.pid'))).toBe(false);
    } finally {
      await new Promise((resolve) => busy.close(resolve));
    }
  });
});
