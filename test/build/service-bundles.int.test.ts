// The service bundles (scripts/bundle-services.mjs): made from the compiled services into a folder of their own,
// all four start from them and serve what reads files beside its own modules (migrations, the proto, the
// console, worker threads, the embedded PGlite), through the real stack with authorization on.
import { execFile } from 'node:child_process';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { SystemStatus } from '@talon/contracts';
import {
  connectTalonApi,
  findFreePort,
  REPO_ROOT,
  startNatsTestServer,
  startServiceProcess,
  waitUntil,
  type NatsTestServer,
  type ServiceProcess,
  type TalonApiClient,
} from '@talon/testing';

const SERVICES = ['orchestrator', 'tool-worker', 'skill-service', 'wasm-runner'] as const;

describe('service bundles', () => {
  let bundles: string;
  let stateDir: string;
  let nats: NatsTestServer;
  let talon: TalonApiClient;
  let httpUrl: string;
  const services: ServiceProcess[] = [];

  beforeAll(async () => {
    bundles = await mkdtemp(join(tmpdir(), 'talon-bundles-'));
    stateDir = await mkdtemp(join(tmpdir(), 'talon-bundles-state-'));
    await promisify(execFile)(
      process.execPath,
      [join(REPO_ROOT, 'scripts/bundle-services.mjs'), '--quiet', '--out', bundles],
      { cwd: REPO_ROOT, timeout: 120_000 },
    );
    nats = await startNatsTestServer();
    const httpPort = await findFreePort();
    httpUrl = `http://127.0.0.1:${httpPort}`;
    const env = {
      NATS_URL: nats.url,
      TALON_STATE_DIR: stateDir,
      TALON_HTTP_PORT: String(httpPort),
      TALON_GRPC_PORT: String(await findFreePort()),
    };
    services.push(
      ...(await Promise.all(
        SERVICES.map((name) =>
          startServiceProcess(name, env, { entry: join(bundles, name, 'main.mjs'), timeoutMs: 90_000 }),
        ),
      )),
    );
    talon = await connectTalonApi(nats.url);
  }, 180_000);

  afterAll(async () => {
    await talon?.close();
    await Promise.all(services.map((service) => service.kill()));
    await nats?.stop();
    await rm(bundles, { recursive: true, force: true });
    await rm(stateDir, { recursive: true, force: true });
  });

  it('bundled each service with its source map and the list of files it was made from', async () => {
    for (const name of SERVICES) {
      const inputs = JSON.parse(await readFile(join(bundles, name, 'inputs.json'), 'utf8')) as {
        files: Array<[string, number, number]>;
      };
      const files = inputs.files.map(([file]) => file);
      expect(files).toContain(`apps/${name}/dist/main.js`);
      expect(files).toContain('pnpm-lock.yaml');
      expect(files.some((file) => file.includes('node_modules'))).toBe(false);
      expect(JSON.parse(await readFile(join(bundles, name, 'main.mjs.map'), 'utf8'))).toHaveProperty(
        'mappings',
      );
    }
  });

  it('runs every service from its bundle', async () => {
    for (const service of services) {
      const commandLine = (await readFile(`/proc/${service.child.pid}/cmdline`, 'utf8')).split('\0');
      expect(commandLine[1]).toBe(join(bundles, service.name, 'main.mjs'));
    }
    // The embedded PGlite opened and migrated (its files and the migrations are found beside their modules).
    await services[0]!.waitForLog((line) => line.msg === 'database ready');
    await waitUntil(
      async () =>
        (await talon.ok<SystemStatus>('system.status')).services.every((service) => service.state === 'up'),
      30_000,
      'every service up',
    );
    const status = await talon.ok<SystemStatus>('system.status');
    expect(status.services.map((service) => service.service).sort()).toEqual([...SERVICES].sort());
  });

  it('serves a call on each kind of tool, the skills, and the console', async () => {
    await waitUntil(
      async () => (await talon.call('tools.call', { tool: 'echo', params: { message: 'x' } })).ok,
      30_000,
      'echo callable',
    );
    const echo = await talon.ok<{ output: unknown }>('tools.call', {
      tool: 'echo',
      params: { message: 'bundled' },
    });
    expect(JSON.stringify(echo.output)).toContain('bundled');
    // A dev tool in the wasm-runner, in its workspace (default `<state>/workspace`).
    await mkdir(join(stateDir, 'workspace'), { recursive: true });
    await writeFile(join(stateDir, 'workspace', 'bundle-probe.txt'), 'from the bundle');
    await waitUntil(
      async () => (await talon.call('tools.call', { tool: 'list_dir', params: { path: '.' } })).ok,
      30_000,
      'list_dir callable',
    );
    const listing = await talon.ok<{ output: unknown }>('tools.call', {
      tool: 'list_dir',
      params: { path: '.' },
    });
    expect(JSON.stringify(listing.output)).toContain('bundle-probe.txt');
    const skills = await talon.ok<{ skills: unknown[] }>('skills.list', {});
    expect(Array.isArray(skills.skills)).toBe(true);
    // The console's files are found from the orchestrator's install root.
    const page = await fetch(`${httpUrl}/`);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('<html');
  });

  it('keeps class names, by which Nest names modules and routes', async () => {
    const loaded = services[0]!.logs
      .filter((line) => line.context === 'InstanceLoader')
      .map((line) => String(line.msg));
    expect(loaded).toContain('OrchestratorModule dependencies initialized');
    // A bundler renames clashing top-level classes (`Server$1`: Nest's microservice server beside the MCP
    // SDK's); a renamed class must still be named as written, since Nest names its loggers by it. rolldown
    // 1.3.3 leaves two out: @hono/node-server's `Request` and `Response`, which shadow the globals and
    // declare static members first; nothing reads their names.
    const bundle = await readFile(join(bundles, 'orchestrator', 'main.mjs'), 'utf8');
    const kept = new Set(
      [...bundle.matchAll(/\bclass (\w+)\$\d+\b[^{]*\{\s*static \{\s*__name\(this, "(\w+)"\)/g)].map(
        (match) => match[2],
      ),
    );
    const renamed = [...bundle.matchAll(/\bclass (\w+)\$\d+\b/g)].map((match) => match[1]!);
    expect(kept).toContain('Server');
    expect(renamed.filter((name) => !kept.has(name)).sort()).toEqual(['Request', 'Response']);
    for (const service of services)
      for (const line of service.logs) expect(`${line.msg} ${line.context}`).not.toMatch(/\w\$\d+\b/);
    // The typed error survives the bundle: UNKNOWN_TOOL, or the retryable UNAVAILABLE while the catalog
    // is still in its warm-up window (3 s after the orchestrator's start), never anything else.
    const codes = new Set<string>();
    await waitUntil(
      async () => {
        const reply = await talon.call('tools.call', { tool: 'no_such_tool', params: {} });
        codes.add(reply.ok ? 'ok' : reply.error.code);
        return !reply.ok && reply.error.code === 'UNKNOWN_TOOL';
      },
      15_000,
      'UNKNOWN_TOOL once the catalog is warm',
    );
    expect([...codes].filter((code) => code !== 'UNAVAILABLE')).toEqual(['UNKNOWN_TOOL']);
  });
});
