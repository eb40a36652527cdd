import { assertValidToolDefinition } from '@talon/tool-runtime';
import type { Capabilities } from './capabilities.js';
import type { ComponentCompiler } from './component-compiler.js';
import { ComponentLoadError } from './errors/component-load-error.js';
import { HostImports, type HostImportsDependencies } from './host-imports.js';
import type { SecretsProvider } from './secrets-provider.js';
import { WasmTool, type WasmToolVersion } from './wasm-tool.js';
import type { GuestLogLevel } from './worker-protocol.js';
import { ComponentWorkerPool } from './worker-pool.js';

/** What the loader needs to turn component bytes into runnable tools. */
export interface ComponentToolLoaderOptions {
  compiler: ComponentCompiler;
  /** HTTP client, workspace root and tool dispatcher behind the host imports. */
  host: HostImportsDependencies;
  /** Looked up after each call's own credential grants. */
  fallbackSecrets?: SecretsProvider;
  workerScript?: URL;
  /** Guest log lines below this level are dropped in the worker (the service's own level). Default `debug` (all). */
  logLevel?: GuestLogLevel;
}

/** A component to load as one tool version. */
export interface ComponentToolSpec {
  bytes: Uint8Array;
  capabilities: Capabilities;
  version: string;
  /** Host-side configuration handed to the guest in `request.context` (e.g. a base URL). Never secrets. */
  config?: Record<string, unknown>;
  /**
   * The sha256 of `bytes` when the caller has just checked it against them (an install, a restore): the
   * compile cache is keyed by it, so it saves hashing megabytes again. Never a value read from elsewhere.
   */
  verifiedSha256?: string;
}

/**
 * Compiles a component (cached), checks its imports against the capabilities, starts its worker pool and
 * reads its `schema()` and `description()`: after `loadVersion` one warm worker is ready.
 */
export class ComponentToolLoader {
  constructor(private readonly options: ComponentToolLoaderOptions) {}

  async loadVersion(
    spec: ComponentToolSpec,
    toolName = 'component',
  ): Promise<WasmToolVersion & { witVersion?: string }> {
    const { capabilities } = spec;
    const compiled = await this.options.compiler.compile(
      spec.bytes,
      { allowedImports: capabilities.allowedImports },
      spec.verifiedSha256,
    );
    // Not awaited: the first worker boots while the modules compile.
    const modules = this.options.compiler.loadModules(compiled, capabilities.memoryMb);
    const pool = new ComponentWorkerPool({
      toolName,
      component: { entryUrl: compiled.entryUrl, modules },
      hostImports: new HostImports(capabilities, this.options.host),
      timeoutMs: capabilities.timeoutMs,
      maxConcurrency: capabilities.maxConcurrency,
      memoryMb: capabilities.memoryMb,
      maxOutputBytes: capabilities.maxOutputBytes,
      workerScript: this.options.workerScript,
      logLevel: this.options.logLevel,
      context: spec.config === undefined ? undefined : JSON.stringify({ config: spec.config }),
    });
    try {
      const { schema, description } = await pool.describe();
      let parameters: unknown;
      try {
        parameters = JSON.parse(schema);
      } catch {
        parameters = undefined;
      }
      if (typeof parameters !== 'object' || parameters === null || Array.isArray(parameters)) {
        throw new ComponentLoadError(
          "The component's schema() did not return a JSON Schema object; fix the tool.",
        );
      }
      return {
        version: spec.version,
        sha256: compiled.sha256,
        pool,
        capabilities,
        parameters: parameters as Record<string, unknown>,
        description,
        witVersion: compiled.witVersion,
      };
    } catch (error) {
      await pool.close();
      throw error;
    }
  }

  /** Loads a component as a new {@link WasmTool}. */
  async loadTool(name: string, spec: ComponentToolSpec, displayName?: string): Promise<WasmTool> {
    const version = await this.loadVersion(spec, name);
    try {
      return this.toolFor(name, version, displayName);
    } catch (error) {
      await version.pool.close();
      throw error;
    }
  }

  /**
   * Wraps a loaded version as a {@link WasmTool} that also looks up the loader's fallback secrets.
   * @throws InvalidToolDefinitionError when the name, schema or description make an invalid definition.
   */
  toolFor(
    name: string,
    version: WasmToolVersion,
    displayName?: string,
    source: 'wasm' | 'built' = 'wasm',
  ): WasmTool {
    const tool = new WasmTool(
      { name, displayName, fallbackSecrets: this.options.fallbackSecrets, source },
      version,
    );
    assertValidToolDefinition(tool.definition);
    return tool;
  }
}
