import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import {
  chmodSync,
  chownSync,
  copyFileSync,
  existsSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Sandbox, type EgressDecision } from '@talon/sandbox';
import { hostProcessesWith, startHostCanary, waitUntilGone, type HostCanary } from '@talon/testing';
import { McpManager, parseMcpServerConfig } from '../src/index.js';
import { FIXTURES, makeTestDirs, REPO_ROOT, type TestDirs } from './support/mcp-test-servers.js';

const PLANTED = 'nats-password-T4lon-mcp-0123456789';
const KEY_CONTENT = 'talon-secrets-key-mcp\n';

interface Attempt {
  ok: boolean;
  value?: unknown;
  error?: string;
  status?: number;
  body?: string;
  started?: number;
}

/**
 * A hostile stdio MCP server of our own (fixtures/escape-server.mjs) tries to escape its sandbox. Each
 * test checks the host: files, processes and the loopback canary's request log.
 */
describe('a hostile stdio MCP server in the sandbox', () => {
  let dirs: TestDirs;
  let stateDir: string;
  let canary: HostCanary;
  let manager: McpManager;
  let sandbox: Sandbox;
  const decisions: EgressDecision[] = [];

  const attempt = async (args: Record<string, unknown>): Promise<Attempt> =>
    JSON.parse((await manager.call('escape.attempt', args)).text) as Attempt;

  beforeAll(async () => {
    dirs = await makeTestDirs();
    stateDir = mkdtempSync(join(tmpdir(), 'talon-mcp-state-'));
    writeFileSync(join(stateDir, 'secrets.key'), KEY_CONTENT, { mode: 0o600 });
    writeFileSync(join(stateDir, 'nats.creds'), `password: ${PLANTED}\n`, { mode: 0o600 });
    process.env.NATS_PASSWORD = PLANTED;
    canary = await startHostCanary();
    sandbox = Sandbox.create({
      mode: 'on',
      egressAllowlist: [{ cidr: '127.0.0.1/32', ports: [canary.port] }],
      onEgress: (decision) => decisions.push(decision),
    });
    const definition = parseMcpServerConfig({
      name: 'escape',
      transport: {
        type: 'stdio',
        command: process.execPath,
        args: [join(FIXTURES, 'escape-server.mjs')],
        env: { NATS_URL: `nats://talon:${PLANTED}@127.0.0.1:4222`, TALON_BOOTSTRAP_TOKEN: PLANTED },
      },
      sandbox: {
        read_paths: [join(REPO_ROOT, 'libs/mcp'), join(REPO_ROOT, 'node_modules')],
        write_paths: [dirs.dataDir],
        network_hosts: ['example.com'],
      },
      call_timeout_ms: 20_000,
    });
    manager = new McpManager({ servers: [definition], sandbox });
  });

  afterAll(async () => {
    delete process.env.NATS_PASSWORD;
    await manager?.close();
    await canary?.close();
    await dirs?.cleanup();
    rmSync(stateDir, { recursive: true, force: true });
  });

  it('runs with its profile shown in the listing and its tools', async () => {
    expect((await attempt({ action: 'write', path: join(dirs.dataDir, 'ok.txt') })).ok).toBe(true);
    expect(readFileSync(join(dirs.dataDir, 'ok.txt'), 'utf8')).toContain('pwned by escape-server');
    const listing = manager.list()[0];
    expect(listing?.sandbox).toMatchObject({
      writePaths: [dirs.dataDir],
      network: { mode: 'proxy', hosts: ['example.com'] },
      limits: { maxProcesses: 256 },
    });
    expect(manager.tools()[0]?.definition.sandbox).toEqual(listing?.sandbox);
  });

  it('cannot write outside its paths: /etc, the state dir, the secrets key, the workspace', async () => {
    for (const path of [
      '/etc/talon-mcp-pwned',
      join(stateDir, 'pwned'),
      join(stateDir, 'secrets.key'),
      join(dirs.workspace, 'pwned'),
    ])
      expect((await attempt({ action: 'write', path })).ok).toBe(false);
    expect(existsSync('/etc/talon-mcp-pwned')).toBe(false);
    expect(existsSync(join(stateDir, 'pwned'))).toBe(false);
    expect(existsSync(join(dirs.workspace, 'pwned'))).toBe(false);
    expect(readFileSync(join(stateDir, 'secrets.key'), 'utf8')).toBe(KEY_CONTENT);
  });

  it('cannot read /root, ~/.ssh, the NATS credentials or the host environment', async () => {
    expect((await attempt({ action: 'list', path: '/root' })).ok).toBe(false);
    expect((await attempt({ action: 'read', path: '/root/.ssh/id_ed25519' })).ok).toBe(false);
    expect((await attempt({ action: 'read', path: join(stateDir, 'nats.creds') })).ok).toBe(false);
    const environ = await attempt({ action: 'read', path: '/proc/1/environ' });
    expect(JSON.stringify(environ)).not.toContain(PLANTED);
    const env = await attempt({ action: 'env' });
    expect(JSON.stringify(env)).not.toContain(PLANTED);
    expect(Object.keys(env.value as object)).not.toEqual(expect.arrayContaining(['NATS_URL']));
  });

  it('reaches neither the loopback canary directly nor through the proxy when only another host is granted', async () => {
    expect((await attempt({ action: 'fetch', url: `http://127.0.0.1:${canary.port}/direct` })).ok).toBe(
      false,
    );
    const proxied = await attempt({
      action: 'fetch',
      url: `http://127.0.0.1:${canary.port}/proxied`,
      viaProxy: true,
    });
    expect(proxied).toMatchObject({ ok: true, status: 403 });
    expect(proxied.body).toContain('not granted');
    const metadata = await attempt({
      action: 'fetch',
      url: 'http://169.254.169.254/latest/meta-data/',
      viaProxy: true,
    });
    expect(metadata).toMatchObject({ ok: true, status: 403 });
    expect(canary.hits).toEqual([]);
    expect(decisions.every((decision) => !decision.allowed)).toBe(true);
  });

  it('hits the process limit with a fork bomb and fails a 2 GiB allocation', async () => {
    const fork = await attempt({ action: 'fork' });
    expect(fork.ok).toBe(false);
    expect(fork.started).toBeLessThan(256);
    const alloc = await attempt({ action: 'alloc' });
    expect(alloc.ok).toBe(false);
  }, 60_000);

  it('cannot write outside through a symlink to /, nor gain root from a setuid binary', async () => {
    const link = join(dirs.dataDir, 'rootlink');
    expect((await attempt({ action: 'symlink', link, path: `${stateDir}/link-pwned` })).ok).toBe(false);
    expect(existsSync(join(stateDir, 'link-pwned'))).toBe(false);
    const binary = join(dirs.dataDir, 'suid-id');
    copyFileSync('/usr/bin/id', binary);
    chownSync(binary, 0, 0);
    chmodSync(binary, 0o4755);
    const id = await attempt({ action: 'exec', path: binary, args: ['-u'] });
    expect(id).toEqual({ ok: true, value: `${sandbox.identity.uid}\n` });
  });

  it('takes its leftover processes (from the fork bomb, a detached background job) with it when stopped', async () => {
    const late = join(dirs.dataDir, 'late.txt');
    expect((await attempt({ action: 'background', path: late })).ok).toBe(true);
    await manager.stop('escape');
    expect(await waitUntilGone('sleep 3211', 5000)).toEqual([]);
    expect(await waitUntilGone('sleep 3212', 5000)).toEqual([]);
    expect(existsSync(late)).toBe(false);
  }, 30_000);
});

describe('a stdio MCP server where the sandbox cannot run', () => {
  it('is refused with SANDBOX_UNAVAILABLE and a fix, and nothing is started', async () => {
    const definition = parseMcpServerConfig({
      name: 'escape',
      transport: { type: 'stdio', command: process.execPath, args: [join(FIXTURES, 'escape-server.mjs')] },
      sandbox: { read_paths: [join(REPO_ROOT, 'libs/mcp'), join(REPO_ROOT, 'node_modules')] },
      restart: { max_restarts: 0 },
    });
    const manager = new McpManager({
      servers: [definition],
      sandbox: Sandbox.create({ mode: 'on', bwrapPath: '/nonexistent/bwrap' }),
    });
    try {
      const error = await manager.start('escape').catch((caught: unknown) => caught);
      expect(error).toMatchObject({
        code: 'SANDBOX_UNAVAILABLE',
        message: expect.stringMatching(/MCP server "escape" refused.*apt-get install bubblewrap/s),
      });
      expect(manager.list()[0]).toMatchObject({ state: 'down' });
      expect(hostProcessesWith('escape-server.mjs')).toEqual([]);
    } finally {
      await manager.close();
    }
  });
});
