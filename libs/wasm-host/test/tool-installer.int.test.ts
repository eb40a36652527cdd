import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { TalonError } from '@talon/errors';
import { assertValidToolDefinition } from '@talon/tool-runtime';
import { ComponentCompiler, sha256Hex } from '../src/component-compiler.js';
import { createExtensionTools } from '../src/extension-tools/extension-tools.js';
import { ComponentToolLoader } from '../src/component-tool-loader.js';
import { FetchHostHttpClient } from '../src/fetch-host-http-client.js';
import type { HostHttpClient } from '../src/host-http-client.js';
import { InstalledToolsStore } from '../src/installed-tools-store.js';
import { safeFetchArtifactDownloader } from '../src/safe-fetch-artifact-downloader.js';
import { StaticSecretsProvider } from '../src/static-secrets-provider.js';
import { ToolInstaller, type InstalledToolChange } from '../src/tool-installer.js';
import { ToolPackageRegistry } from '../src/tool-package-registry.js';
import { startEchoServer, type EchoServer } from './http-echo-server.js';
import { ROOT, artifactPath, buildToolsAndWorker, tempDir, toolContext } from './wasm-test-setup.js';

async function errorOf(promise: Promise<unknown>): Promise<TalonError> {
  const error = await promise.then(
    () => undefined,
    (caught: unknown) => caught,
  );
  if (!TalonError.isInstance(error)) throw new Error(`expected a TalonError, got ${String(error)}`);
  return error;
}

/** Sends requests for the weather API's real host to the local echo server (like a pinned resolver would). */
function redirectingClient(server: EchoServer): HostHttpClient {
  const inner = new FetchHostHttpClient();
  return {
    request: (request) => {
      const url = new URL(request.url);
      if (url.hostname === 'api.weatherapi.com') url.host = server.host;
      url.protocol = 'http:';
      return inner.request({ ...request, url: url.href });
    },
  };
}

describe('tool installer (registry entries, sha256 and WIT checks, hot upgrade, persisted state)', () => {
  const cache = tempDir('wasm-cache');
  const state = tempDir('wasm-state');
  const registryDir = tempDir('wasm-registry');
  const workspace = tempDir('workspace');
  const changes: InstalledToolChange[] = [];
  let server: EchoServer;
  let artifactServer: Server;
  let artifactBase: string;
  let loader: ComponentToolLoader;
  let installer: ToolInstaller;

  function entry(name: string, fields: Record<string, unknown> = {}) {
    const path = artifactPath('probe', 'wat');
    return {
      name,
      display_name: `Test ${name}`,
      version: '1.0.0',
      wit_version: '0.1.0',
      description: 'test entry',
      keywords: ['probe'],
      artifact: { url: pathToFileURL(path).href, sha256: sha256Hex(readFileSync(path)) },
      capabilities: { effects: [], limits: { memory_mb: 4, timeout_ms: 1000 } },
      auth: { required: false, secrets: [], summary: 'none' },
      tags: ['test'],
      ...fields,
    };
  }

  function writeEntry(value: Record<string, unknown>): void {
    writeFileSync(join(registryDir.path, 'tools', `${value.name as string}.json`), JSON.stringify(value));
  }

  async function newInstaller(registry: ToolPackageRegistry): Promise<ToolInstaller> {
    return new ToolInstaller({
      registry,
      store: await InstalledToolsStore.open(state.path),
      loader,
      onChange: (change) => changes.push(change),
      maxArtifactBytes: 20_000_000,
    });
  }

  beforeAll(async () => {
    buildToolsAndWorker();
    server = await startEchoServer();
    const probeBytes = readFileSync(artifactPath('probe', 'wat'));
    artifactServer = createServer((request, response) => {
      if (request.url === '/probe.wasm') response.end(probeBytes);
      else if (request.url === '/huge.wasm') response.end(Buffer.alloc(30_000_000));
      else response.writeHead(404).end();
    });
    await new Promise<void>((resolve) => artifactServer.listen(0, '127.0.0.1', resolve));
    artifactBase = `http://127.0.0.1:${(artifactServer.address() as AddressInfo).port}`;

    mkdirSync(join(registryDir.path, 'tools'));
    mkdirSync(join(workspace.path, 'docs'));
    writeFileSync(join(workspace.path, 'docs', 'intro.md'), '# Intro\nTalon runs tools.\n');
    writeFileSync(join(workspace.path, 'secret.txt'), 'nope');
    writeEntry(entry('probe'));
    writeEntry(
      entry('bad-sha', {
        artifact: { url: pathToFileURL(artifactPath('probe', 'wat')).href, sha256: '0'.repeat(64) },
      }),
    );
    writeEntry(entry('future-wit', { wit_version: '0.2.0' }));
    const wasiPath = artifactPath('wasi-random', 'wat');
    writeEntry(
      entry('wasi-random', { artifact: { url: wasiPath, sha256: sha256Hex(readFileSync(wasiPath)) } }),
    );
    writeEntry(
      entry('downloaded', { artifact: { url: `${artifactBase}/probe.wasm`, sha256: sha256Hex(probeBytes) } }),
    );
    writeEntry(entry('too-big', { artifact: { url: `${artifactBase}/huge.wasm`, sha256: '1'.repeat(64) } }));
    writeFileSync(join(registryDir.path, 'tools', 'broken.json'), '{"name": "broken"');

    loader = new ComponentToolLoader({
      compiler: new ComponentCompiler({ cacheDir: cache.path }),
      host: { httpClient: redirectingClient(server), workspaceRoot: workspace.path },
      fallbackSecrets: new StaticSecretsProvider({ weather_api_key: 'wk-secret-123' }),
    });
    installer = await newInstaller(await ToolPackageRegistry.open(registryDir.path));
  }, 180_000);

  afterAll(async () => {
    await installer?.close();
    await server?.close();
    artifactServer?.closeAllConnections();
    await new Promise((resolve) => artifactServer?.close(resolve));
    for (const dir of [cache, state, registryDir, workspace]) dir.cleanup();
  });

  it('skips an unreadable registry file and reports it', async () => {
    const registry = await ToolPackageRegistry.open(registryDir.path);
    expect(registry.problems).toEqual([expect.objectContaining({ file: 'broken.json' })]);
    expect(registry.get('probe')).toBeDefined();
  });

  it('installs with the right sha256 and the tool is callable at once', async () => {
    const info = await installer.install('probe');
    expect(info).toMatchObject({
      name: 'probe',
      version: '1.0.0',
      wit_version: '0.1.0',
      definition: { name: 'probe', source: 'wasm', domain: 'container' },
    });
    expect(changes.at(-1)).toMatchObject({ kind: 'installed', name: 'probe' });
    await expect(installer.get('probe')!.execute({ a: 1 }, toolContext())).resolves.toEqual({ a: 1 });
    expect(installer.list().map((tool) => tool.name)).toEqual(['probe']);
  });

  it('refuses to install a tool twice', async () => {
    expect((await errorOf(installer.install('probe'))).code).toBe('NAME_CONFLICT');
  });

  it('refuses a wrong sha256 with INTEGRITY_MISMATCH', async () => {
    const error = await errorOf(installer.install('bad-sha'));
    expect(error.code).toBe('INTEGRITY_MISMATCH');
    expect(error.details).toMatchObject({ check: 'sha256', expected: '0'.repeat(64) });
    expect(installer.get('bad-sha')).toBeUndefined();
  });

  it('refuses a WIT version this host does not implement', async () => {
    const error = await errorOf(installer.install('future-wit'));
    expect(error.code).toBe('INTEGRITY_MISMATCH');
    expect(error.details).toMatchObject({ check: 'wit_version', actual: '0.2.0' });
  });

  it('refuses a component that imports WASI interfaces', async () => {
    const error = await errorOf(installer.install('wasi-random'));
    expect(error).toMatchObject({ name: 'ForbiddenImportError', code: 'POLICY_DENIED' });
    expect(error.message).toContain('wasi:random/random@0.2.0');
    expect(installer.get('wasi-random')).toBeUndefined();
    // Its artifact was saved while the version started (an install uploads meanwhile), and pruned again.
    const sha = sha256Hex(readFileSync(artifactPath('wasi-random', 'wat')));
    expect(existsSync(join(state.path, 'artifacts', `${sha}.wasm`))).toBe(false);
  });

  it('downloads an http artifact, and refuses one above the byte cap', async () => {
    await installer.install('downloaded');
    await expect(installer.get('downloaded')!.execute({ via: 'http' }, toolContext())).resolves.toEqual({
      via: 'http',
    });
    expect((await errorOf(installer.install('too-big'))).code).toBe('PAYLOAD_TOO_LARGE');
  });

  it('downloads through the SSRF guard: refused by default, allowed for an allowlisted loopback port', async () => {
    const registry = await ToolPackageRegistry.open(registryDir.path);
    const guarded = (allowlist: { cidr: string; ports: number[] }[]) =>
      InstalledToolsStore.open(join(state.path, `guarded-${allowlist.length}`)).then(
        (store) =>
          new ToolInstaller({
            registry,
            store,
            loader,
            download: safeFetchArtifactDownloader({ allowlist }),
            maxArtifactBytes: 20_000_000,
          }),
      );
    const strict = await guarded([]);
    expect((await errorOf(strict.install('downloaded'))).code).toBe('SSRF_BLOCKED');
    const port = Number(new URL(artifactBase).port);
    const trusting = await guarded([{ cidr: '127.0.0.1', ports: [port] }]);
    await trusting.install('downloaded');
    expect((await errorOf(trusting.install('too-big'))).code).toBe('PAYLOAD_TOO_LARGE');
    await trusting.close();
  }, 60_000);

  it('refuses unknown tools and reports info', async () => {
    expect((await errorOf(installer.install('no-such-tool'))).code).toBe('NOT_FOUND');
    expect(() => installer.info('no-such-tool')).toThrow(expect.objectContaining({ code: 'NOT_FOUND' }));
    expect(installer.info('probe')).toMatchObject({
      installed: { name: 'probe' },
      registry: { name: 'probe' },
      upgradeAvailable: false,
    });
  });

  it('upgrades while a call is in flight: the call finishes on the old version, new calls use the new one', async () => {
    const hostProbe = artifactPath('host-probe');
    writeEntry(
      entry('swap', {
        artifact: { url: hostProbe, sha256: sha256Hex(readFileSync(hostProbe)) },
        capabilities: {
          effects: ['network'],
          http: { allowlist: [{ host: server.host, path_prefix: '/v1/', methods: ['GET'] }] },
          limits: { memory_mb: 128, timeout_ms: 5000, max_concurrency: 1 },
        },
      }),
    );
    const registry = await ToolPackageRegistry.open(registryDir.path);
    const local = await newInstaller(registry);
    await local.install('swap');
    const tool = local.get('swap')!;
    const oldPool = tool.version.pool;
    const inFlight = tool.execute({ op: 'http', url: `http://${server.host}/v1/slow` }, toolContext());
    // Queued behind the in-flight call (max_concurrency 1): it moves to the new version.
    const queued = tool.execute({ op: 'queued' }, toolContext());
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(oldPool.stats()).toMatchObject({ inFlight: 2, queued: 1 });

    writeEntry(entry('swap', { version: '2.0.0' }));
    await registry.reload();
    const upgraded = await local.upgrade('swap');
    expect(upgraded.version).toBe('2.0.0');
    await expect(tool.execute({ after: 'upgrade' }, toolContext())).resolves.toEqual({ after: 'upgrade' });

    const old = (await inFlight) as { ok: { status: number } };
    expect(old.ok.status).toBe(200);
    await expect(queued).resolves.toEqual({ op: 'queued' });
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(oldPool.stats().workers).toBe(0);
    expect(changes.at(-1)).toMatchObject({ kind: 'upgraded', name: 'swap', version: '2.0.0' });
    await local.remove('swap');
    await local.close();
  }, 60_000);

  it('keeps the installed state across a new host instance, and remove unregisters', async () => {
    const again = await newInstaller(await ToolPackageRegistry.open(registryDir.path));
    const { restored, failed } = await again.restore();
    expect(failed).toEqual([]);
    expect(restored.sort()).toEqual(['downloaded', 'probe']);
    await expect(again.get('probe')!.execute({ restored: true }, toolContext())).resolves.toEqual({
      restored: true,
    });
    await again.remove('downloaded');
    expect(again.get('downloaded')).toBeUndefined();
    expect(changes.at(-1)).toMatchObject({ kind: 'removed', name: 'downloaded' });
    await again.close();
    const third = await InstalledToolsStore.open(state.path);
    expect(third.list().map((record) => record.name)).toEqual(['probe']);
  }, 60_000);

  it('reconciles a second instance sharing the state: install, upgrade and remove made elsewhere', async () => {
    const shared = join(state.path, 'shared');
    const registry = await ToolPackageRegistry.open(registryDir.path);
    const first = new ToolInstaller({ registry, store: await InstalledToolsStore.open(shared), loader });
    const second = new ToolInstaller({ registry, store: await InstalledToolsStore.open(shared), loader });
    await first.install('probe');
    expect(await second.reconcile()).toMatchObject({
      installed: ['probe'],
      upgraded: [],
      removed: [],
      failed: [],
    });
    await expect(second.get('probe')!.execute({ seen: 'by second' }, toolContext())).resolves.toEqual({
      seen: 'by second',
    });

    const hostProbe = artifactPath('host-probe');
    await first.upgrade('probe', {
      entry: {
        ...registry.get('probe')!.entry,
        version: '2.0.0',
        artifact: { url: hostProbe, sha256: sha256Hex(readFileSync(hostProbe)) },
        capabilities: { effects: [] },
      },
      baseDir: registryDir.path,
    });
    expect(await second.reconcile()).toMatchObject({ installed: [], upgraded: ['probe'], removed: [] });
    await expect(second.get('probe')!.execute({ op: 'now' }, toolContext())).resolves.toMatchObject({
      ok: expect.any(Number),
    });

    await first.remove('probe');
    expect(await second.reconcile()).toMatchObject({ removed: ['probe'] });
    expect(second.get('probe')).toBeUndefined();
    await Promise.all([first.close(), second.close()]);
  }, 60_000);

  it('offers tool_search, tool_install, tool_list, tool_upgrade, tool_remove and extension_info as tools', async () => {
    const local = new ToolInstaller({
      registry: await ToolPackageRegistry.open(registryDir.path),
      store: await InstalledToolsStore.open(join(state.path, 'ext')),
      loader,
    });
    const tools = Object.fromEntries(createExtensionTools(local).map((tool) => [tool.definition.name, tool]));
    for (const tool of Object.values(tools)) assertValidToolDefinition(tool.definition);
    expect(tools.tool_install!.definition).toMatchObject({
      effects: ['modify_extension'],
      approval: 'always',
    });
    const search = (await tools.tool_search!.execute({ query: 'downloaded' }, toolContext())) as {
      results: { name: string; installed: boolean }[];
    };
    expect(search.results[0]).toMatchObject({ name: 'downloaded', installed: false });
    const installed = (await tools.tool_install!.execute({ name: 'probe' }, toolContext())) as {
      installed: { name: string; sha256: string }[];
    };
    expect(installed.installed[0]).toMatchObject({
      name: 'probe',
      sha256: sha256Hex(readFileSync(artifactPath('probe', 'wat'))),
    });
    expect(await tools.tool_list!.execute({}, toolContext())).toMatchObject({
      tools: [{ name: 'probe', version: '1.0.0' }],
    });
    expect(await tools.extension_info!.execute({ name: 'probe' }, toolContext())).toMatchObject({
      installed: { name: 'probe' },
      registry: { name: 'probe', auth: { required: false } },
      upgradeAvailable: false,
    });
    expect(await tools.tool_upgrade!.execute({ name: 'probe' }, toolContext())).toMatchObject({
      upgraded: { version: '1.0.0' },
      previousVersion: '1.0.0',
    });
    expect(await tools.tool_remove!.execute({ name: 'probe' }, toolContext())).toEqual({ removed: 'probe' });
    expect(await tools.tool_list!.execute({}, toolContext())).toEqual({ tools: [] });
    expect((await errorOf(tools.tool_remove!.execute({ name: 'probe' }, toolContext()))).code).toBe(
      'NOT_FOUND',
    );
    await local.close();
  }, 60_000);

  describe('the real registry (tools built from tools-src)', () => {
    let real: ToolInstaller;

    beforeAll(async () => {
      const store = await InstalledToolsStore.open(join(state.path, 'real'));
      real = new ToolInstaller({
        registry: await ToolPackageRegistry.open(join(ROOT, 'registry')),
        store,
        loader,
      });
    });

    afterAll(async () => {
      await real?.close();
    });

    it('finds tools by keyword and installs a bundle', async () => {
      expect(real.search('weather')[0]!.name).toBe('weather-api');
      const installed = await real.installBundle('all');
      expect(installed.map((info) => info.name).sort()).toEqual([
        'text-stats',
        'weather-api',
        'workspace-summary',
      ]);
    }, 60_000);

    it('runs text-stats', async () => {
      const result = await real
        .get('text-stats')!
        .execute({ text: 'the cat and the hat\nthe end', top: 2 }, toolContext());
      expect(result).toEqual({
        characters: 27,
        words: 7,
        lines: 2,
        uniqueWords: 5,
        topWords: [
          { word: 'the', count: 3 },
          { word: 'and', count: 1 },
        ],
      });
    });

    it('runs weather-api with the host-injected key against its declared host', async () => {
      const result = await real.get('weather-api')!.execute({ city: 'Lisbon' }, toolContext());
      expect(result).toMatchObject({ city: 'Lisbon', temperature: 21.5, unit: 'C', condition: 'Sunny' });
      const request = server.received.at(-1)!;
      expect(request.url).toBe('/v1/current.json?q=Lisbon');
      expect(request.headers['x-api-key']).toBe('wk-secret-123');
      expect(JSON.stringify(result)).not.toContain('wk-secret-123');
    });

    it('runs workspace-summary through workspace-read, refusing paths outside its prefixes', async () => {
      const result = (await real
        .get('workspace-summary')!
        .execute({ paths: ['docs/intro.md', 'secret.txt'] }, toolContext())) as {
        files: { path: string; title?: string; error?: string }[];
      };
      expect(result.files[0]).toMatchObject({ path: 'docs/intro.md', title: 'Intro', lines: 3, words: 5 });
      expect(result.files[1]).toMatchObject({
        path: 'secret.txt',
        error: expect.stringMatching(/outside the allowed prefixes/),
      });
    });
  });
});
