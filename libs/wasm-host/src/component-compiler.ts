import { talonMetrics } from '@talon/telemetry';
import { createHash, randomBytes } from 'node:crypto';
import { mkdir, readFile, readdir, rename, rm, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { ComponentLoadError } from './errors/component-load-error.js';
import { ForbiddenImportError } from './errors/forbidden-import-error.js';
import { TranspileWorkerHandle } from './transpile-worker-handle.js';
import { capModuleMemory } from './wasm-memory-limit.js';

/** The only interface a tool component may import unless its policy allows more. */
export const HOST_INTERFACE = 'talon:tool/host';

/** A component transpiled to JavaScript plus core modules, in the on-disk cache. */
export interface CompiledComponent {
  sha256: string;
  /** Cache folder holding `component.mjs` and the core `.wasm` files. */
  dir: string;
  /** File URL of the generated `component.mjs` (exports `instantiate`). */
  entryUrl: string;
  /** Names of the core module files the entry asks for. */
  coreModules: string[];
  /** Imported interfaces with versions, e.g. `talon:tool/host@0.1.0`. */
  imports: string[];
  /** Version of `talon:tool/host` the component was built against (undefined if it imports no host). */
  witVersion?: string;
  /** Whether this call transpiled (false: read from the cache). */
  fromCache: boolean;
}

/** Options of the compiler. */
export interface ComponentCompilerOptions {
  /** Folder of the transpile cache; one subfolder per jco version and sha256. */
  cacheDir: string;
  /** How long the transpile thread (jco) stays after its last transpile. Default 60 s. */
  transpilerIdleStopMs?: number;
}

/** What may be imported besides `talon:tool/host` (interface names without version, e.g. `wasi:random/random`). */
export interface ImportPolicy {
  allowedImports: readonly string[];
}

interface CacheMeta {
  imports: string[];
  coreModules: string[];
}

const require = createRequire(import.meta.url);

function jcoVersion(): string {
  const api = require.resolve('@bytecodealliance/jco');
  return (require(join(dirname(api), '..', 'package.json')) as { version: string }).version;
}

/** sha256 of bytes as lowercase hex. */
export function sha256Hex(bytes: Uint8Array): string {
  return createHash('sha256').update(bytes).digest('hex');
}

function interfaceName(versioned: string): string {
  return versioned.replace(/@[^/]*$/, '');
}

/** Reads the imported interfaces (with versions) from the component's WIT. */
function importsFromWit(wit: string): string[] {
  const imports: string[] = [];
  for (const line of wit.split('\n')) {
    const match = /^\s*import\s+([^\s;]+?)(;|:\s)/.exec(line);
    if (match) imports.push(match[1]!.replace(/:$/, ''));
  }
  return imports;
}

/** Refuses imports beyond the host interface unless the policy lists them. */
export function checkImports(imports: readonly string[], policy: ImportPolicy): void {
  const allowed = new Set([HOST_INTERFACE, ...policy.allowedImports]);
  const forbidden = imports.filter((name) => !allowed.has(interfaceName(name)));
  if (forbidden.length > 0) {
    throw new ForbiddenImportError(
      `The component imports ${forbidden.join(', ')}; only ${HOST_INTERFACE} is allowed. Rebuild it with all WASI features disabled, or list the interfaces under allowed_imports.`,
      { details: { forbidden } },
    );
  }
}

/**
 * Transpiles components with jco once per sha256 (cached on disk per jco version), checks their imports,
 * and compiles their core modules with a memory cap (cached in memory per sha256 and cap).
 */
export class ComponentCompiler {
  private readonly cacheRoot: string;
  private readonly modules = new Map<string, Promise<Record<string, WebAssembly.Module>>>();

  private readonly transpiler: TranspileWorkerHandle;

  constructor(options: ComponentCompilerOptions) {
    this.cacheRoot = join(options.cacheDir, `jco-${jcoVersion()}`);
    this.transpiler = new TranspileWorkerHandle(options.transpilerIdleStopMs);
  }

  /** Whether the transpile thread is running now (it stops once idle). */
  get transpilerRunning(): boolean {
    return this.transpiler.running;
  }

  /** Loads jco in the transpile thread now, so the first install does not wait for it. */
  warm(): Promise<void> {
    return this.transpiler.warm();
  }

  /** Stops the transpile thread (a later compile starts a new one). */
  close(): Promise<void> {
    return this.transpiler.close();
  }

  /** Transpiles (or reads from the cache) and checks imports against the policy. */
  async compile(
    bytes: Uint8Array,
    policy: ImportPolicy = { allowedImports: [] },
    verifiedSha256?: string,
  ): Promise<CompiledComponent> {
    // An install has just hashed these bytes (12 MB of componentize-js: 10–20 ms on the event loop).
    const sha256 = verifiedSha256 ?? sha256Hex(bytes);
    const dir = join(this.cacheRoot, sha256);
    let meta = await this.readMeta(dir);
    const fromCache = meta !== undefined;
    talonMetrics().wasmCompileCache.inc({ result: fromCache ? 'hit' : 'miss' });
    if (!meta) {
      const reply = await this.transpiler.transpile(bytes).catch((error: unknown) => {
        throw new ComponentLoadError('The transpile worker failed; see the cause.', { cause: error });
      });
      if (!reply.ok) {
        throw new ComponentLoadError(
          reply.stage === 'wit'
            ? `The artifact is not a valid WebAssembly component (${reply.message}); rebuild it.`
            : `jco could not transpile the component (${reply.message}); rebuild it, and check that it targets the talon:tool WIT.`,
        );
      }
      const imports = importsFromWit(reply.wit);
      checkImports(imports, policy);
      meta = await this.writeCache(reply.files, dir, imports);
    }
    checkImports(meta.imports, policy);
    const host = meta.imports.find((name) => interfaceName(name) === HOST_INTERFACE);
    return {
      sha256,
      dir,
      entryUrl: pathToFileURL(join(dir, 'component.mjs')).href,
      coreModules: meta.coreModules,
      imports: meta.imports,
      witVersion: host?.includes('@') ? host.slice(host.lastIndexOf('@') + 1) : undefined,
      fromCache,
    };
  }

  /** Compiles the core modules with every defined memory capped at `memoryMb`; shared by all workers of that cap. */
  loadModules(compiled: CompiledComponent, memoryMb: number): Promise<Record<string, WebAssembly.Module>> {
    const key = `${compiled.sha256}:${memoryMb}`;
    let pending = this.modules.get(key);
    if (!pending) {
      pending = this.compileModules(compiled, memoryMb);
      pending.catch(() => this.modules.delete(key));
      this.modules.set(key, pending);
    }
    return pending;
  }

  /** Drops the in-memory modules of a component (after remove or upgrade). */
  forget(sha256: string): void {
    for (const key of this.modules.keys()) if (key.startsWith(`${sha256}:`)) this.modules.delete(key);
  }

  private async compileModules(
    compiled: CompiledComponent,
    memoryMb: number,
  ): Promise<Record<string, WebAssembly.Module>> {
    const modules: Record<string, WebAssembly.Module> = {};
    for (const name of compiled.coreModules) {
      const bytes = await readFile(join(compiled.dir, name));
      try {
        modules[name] = await WebAssembly.compile(capModuleMemory(bytes, memoryMb * 1_048_576));
      } catch (error) {
        // Only a cache entry changed after its transpile gets here: jco validates every function it writes.
        throw new ComponentLoadError(
          `The cached core module ${name} does not compile (${error instanceof Error ? error.message : String(error)}); delete ${compiled.dir} and install the tool again.`,
          { cause: error },
        );
      }
    }
    return modules;
  }

  private async readMeta(dir: string): Promise<CacheMeta | undefined> {
    try {
      return JSON.parse(await readFile(join(dir, 'talon-meta.json'), 'utf8')) as CacheMeta;
    } catch {
      return undefined;
    }
  }

  private async writeCache(
    files: Record<string, Uint8Array>,
    dir: string,
    imports: string[],
  ): Promise<CacheMeta> {
    // A random suffix: runners in containers all run as pid 1 and may share this folder.
    const staging = `${dir}.tmp-${randomBytes(6).toString('hex')}`;
    await mkdir(staging, { recursive: true });
    const coreModules: string[] = [];
    for (const [name, content] of Object.entries(files)) {
      if (name.includes('/') || name.endsWith('.d.ts')) continue;
      // .mjs: the cache folder has no package.json saying "type": "module".
      await writeFile(join(staging, name === 'component.js' ? 'component.mjs' : name), content);
      if (name.endsWith('.wasm')) coreModules.push(name);
    }
    const meta: CacheMeta = { imports, coreModules: coreModules.sort() };
    await writeFile(join(staging, 'talon-meta.json'), JSON.stringify(meta));
    // Another process may have filled the same entry meanwhile: identical content, keep theirs.
    await rename(staging, dir).catch(async () => rm(staging, { recursive: true, force: true }));
    return meta;
  }

  /** Lists the sha256 entries currently in the disk cache. */
  async cachedEntries(): Promise<string[]> {
    return (await readdir(this.cacheRoot).catch(() => [] as string[])).filter((name) =>
      /^[0-9a-f]{64}$/.test(name),
    );
  }
}
