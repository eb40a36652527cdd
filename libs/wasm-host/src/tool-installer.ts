import { readFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import type { ToolDefinition } from '@talon/contracts';
import { DEFAULT_MAX_ARTIFACT_BYTES, fetchArtifactDownloader, readArtifact, type ArtifactDownloader } from './artifact-source.js';
import { parseCapabilities } from './capabilities.js';
import { sha256Hex } from './component-compiler.js';
import type { ComponentToolLoader } from './component-tool-loader.js';
import { CapabilitiesInvalidError } from './errors/capabilities-invalid-error.js';
import { IntegrityMismatchError } from './errors/integrity-mismatch-error.js';
import { ToolAlreadyInstalledError } from './errors/tool-already-installed-error.js';
import { ToolNotInstalledError } from './errors/tool-not-installed-error.js';
import type { InstalledToolRecord, InstalledToolsStore } from './installed-tools-store.js';
import type { RegistryEntry } from './registry-entry.js';
import type { LocatedRegistryEntry, RegistrySearchHit, ToolPackageRegistry } from './tool-package-registry.js';
import type { WasmTool, WasmToolVersion } from './wasm-tool.js';
import type { PoolStats } from './worker-pool.js';

/** WIT versions of `talon:tool` this host implements. */
export const SUPPORTED_WIT_VERSIONS: readonly string[] = ['0.1.0'];

/** What the installer needs. */
export interface ToolInstallerOptions {
  registry: ToolPackageRegistry;
  store: InstalledToolsStore;
  loader: ComponentToolLoader;
  /** Defaults to {@link SUPPORTED_WIT_VERSIONS}. */
  supportedWitVersions?: readonly string[];
  /** For http(s) artifacts; defaults to the global fetch with a byte cap (plug in the SSRF-guarded one). */
  download?: ArtifactDownloader;
  /** Defaults to {@link DEFAULT_MAX_ARTIFACT_BYTES}. */
  maxArtifactBytes?: number;
  /** Host-side configuration per tool name, passed to the guest in `request.context`. Never secrets. */
  toolConfig?: Readonly<Record<string, Record<string, unknown>>>;
  /** Told after every install, upgrade and remove, so the catalog can re-announce. */
  onChange?: (change: InstalledToolChange) => void;
}

/** A change to the set of installed tools. */
export interface InstalledToolChange {
  kind: 'installed' | 'upgraded' | 'removed';
  name: string;
  version?: string;
  tool?: WasmTool;
}

/** What `list` and `info` report about an installed tool. */
export interface InstalledToolInfo {
  name: string;
  display_name: string;
  version: string;
  wit_version: string;
  sha256: string;
  source_url: string;
  installed_at: string;
  definition: ToolDefinition;
  pool: PoolStats;
}

interface PreparedVersion {
  version: WasmToolVersion;
  /** A tool over the new version, its definition already checked. */
  tool: WasmTool;
  record: InstalledToolRecord;
  bytes: Uint8Array;
}

/**
 * Installs, upgrades and removes component tools from the registry, live: a tool is callable as soon as
 * `install` resolves, an upgrade lets calls already running finish on the old version, and the installed
 * set is persisted so `restore()` brings it back after a restart.
 */
export class ToolInstaller {
  private readonly tools = new Map<string, WasmTool>();
  private readonly locks = new Map<string, Promise<unknown>>();

  constructor(private readonly options: ToolInstallerOptions) {}

  /** Loads every persisted tool; a tool that fails to load is reported, not fatal. */
  async restore(): Promise<{ restored: string[]; failed: { name: string; reason: string }[] }> {
    const restored: string[] = [];
    const failed: { name: string; reason: string }[] = [];
    for (const record of this.options.store.list()) {
      if (this.tools.has(record.name)) continue;
      try {
        const bytes = await this.options.store.readArtifact(record);
        if (sha256Hex(bytes) !== record.sha256) throw new IntegrityMismatchError(`The stored artifact of ${record.name} no longer matches its sha256; reinstall it.`);
        const version = await this.loadVersion(record, bytes);
        try {
          this.tools.set(record.name, this.options.loader.toolFor(record.name, version, record.display_name));
        } catch (error) {
          await version.pool.close();
          throw error;
        }
        restored.push(record.name);
        this.options.onChange?.({ kind: 'installed', name: record.name, version: record.version, tool: this.tools.get(record.name) });
      } catch (error) {
        failed.push({ name: record.name, reason: error instanceof Error ? error.message : String(error) });
      }
    }
    return { restored, failed };
  }

  search(query: string, limit?: number): RegistrySearchHit[] {
    return this.options.registry.search(query, limit);
  }

  /** Installs a registry tool (or the given entry). @throws IntegrityMismatchError, ForbiddenImportError, ToolAlreadyInstalledError */
  install(name: string, entry?: LocatedRegistryEntry): Promise<InstalledToolInfo> {
    return this.exclusive(name, async () => {
      if (this.tools.has(name)) throw new ToolAlreadyInstalledError(`${name} is already installed; use upgrade to change its version.`);
      const prepared = await this.prepare(name, entry);
      await this.options.store.put(prepared.record, prepared.bytes);
      const tool = prepared.tool;
      this.tools.set(name, tool);
      this.options.onChange?.({ kind: 'installed', name, version: prepared.record.version, tool });
      return this.describe(name);
    });
  }

  /** Installs every tool of a bundle that is not installed yet. */
  async installBundle(bundleName: string): Promise<InstalledToolInfo[]> {
    const bundle = this.options.registry.bundles().find((candidate) => candidate.name === bundleName);
    if (!bundle) throw new ToolNotInstalledError(`No bundle named ${bundleName} in the registry; see the bundle list.`);
    const installed: InstalledToolInfo[] = [];
    for (const name of bundle.tools) installed.push(this.tools.has(name) ? this.describe(name) : await this.install(name));
    return installed;
  }

  /**
   * Moves an installed tool to the registry's current version (or the given entry). New calls use the new
   * version at once; calls already running finish on the old one, whose workers stop afterwards.
   */
  upgrade(name: string, entry?: LocatedRegistryEntry): Promise<InstalledToolInfo> {
    return this.exclusive(name, async () => {
      const tool = this.requireTool(name);
      const located = this.locate(name, entry);
      if (located.entry.artifact.sha256 === this.options.store.get(name)?.sha256) return this.describe(name);
      const prepared = await this.prepare(name, located);
      await this.options.store.put(prepared.record, prepared.bytes);
      const previous = tool.replace(prepared.version);
      this.options.onChange?.({ kind: 'upgraded', name, version: prepared.record.version, tool });
      void this.retire(previous);
      return this.describe(name);
    });
  }

  /** Unregisters a tool; calls already running finish first. */
  remove(name: string): Promise<void> {
    return this.exclusive(name, async () => {
      const tool = this.requireTool(name);
      this.tools.delete(name);
      await this.options.store.delete(name);
      this.options.onChange?.({ kind: 'removed', name });
      await this.retire(tool.version);
    });
  }

  list(): InstalledToolInfo[] {
    return [...this.tools.keys()].sort().map((name) => this.describe(name));
  }

  /** What is installed and what the registry offers under that name. */
  info(name: string): { installed?: InstalledToolInfo; registry?: RegistryEntry; upgradeAvailable: boolean } {
    const registry = this.options.registry.get(name)?.entry;
    const installed = this.tools.has(name) ? this.describe(name) : undefined;
    if (!installed && !registry) throw new ToolNotInstalledError(`No tool named ${name} is installed or in the registry; try tool_search.`);
    return { installed, registry, upgradeAvailable: Boolean(installed && registry && registry.artifact.sha256 !== installed.sha256) };
  }

  get(name: string): WasmTool | undefined {
    return this.tools.get(name);
  }

  /** Every installed tool, for the catalog. */
  all(): WasmTool[] {
    return [...this.tools.values()];
  }

  /** Stops every worker (after in-flight calls). State on disk is kept. */
  async close(): Promise<void> {
    const tools = [...this.tools.values()];
    this.tools.clear();
    await Promise.all(tools.map((tool) => tool.version.pool.close()));
  }

  private describe(name: string): InstalledToolInfo {
    const tool = this.requireTool(name);
    const record = this.options.store.get(name)!;
    return {
      name,
      display_name: record.display_name,
      version: record.version,
      wit_version: record.wit_version,
      sha256: record.sha256,
      source_url: record.source_url,
      installed_at: record.installed_at,
      definition: tool.definition,
      pool: tool.version.pool.stats(),
    };
  }

  private requireTool(name: string): WasmTool {
    const tool = this.tools.get(name);
    if (!tool) throw new ToolNotInstalledError(`${name} is not installed; see tool_list, or install it first.`);
    return tool;
  }

  private async retire(version: WasmToolVersion): Promise<void> {
    await version.pool.close().catch(() => undefined);
    await this.options.store.pruneArtifact(version.sha256).catch(() => undefined);
  }

  private locate(name: string, given?: LocatedRegistryEntry): LocatedRegistryEntry {
    const located = given ?? this.options.registry.get(name);
    if (!located) throw new ToolNotInstalledError(`No tool named ${name} in the registry; try tool_search.`);
    if (located.entry.name !== name) throw new IntegrityMismatchError(`The registry entry is for ${located.entry.name}, not ${name}.`);
    return located;
  }

  private async prepare(name: string, given?: LocatedRegistryEntry): Promise<PreparedVersion> {
    const { entry, baseDir } = this.locate(name, given);
    const supported = this.options.supportedWitVersions ?? SUPPORTED_WIT_VERSIONS;
    if (!supported.includes(entry.wit_version)) {
      throw new IntegrityMismatchError(`${name} targets talon:tool ${entry.wit_version}; this host implements ${supported.join(', ')}. Install a version built for it.`, {
        details: { expected: supported, actual: entry.wit_version, check: 'wit_version' },
      });
    }
    const bytes = await readArtifact(entry.artifact.url, baseDir, this.options.maxArtifactBytes ?? DEFAULT_MAX_ARTIFACT_BYTES, this.options.download ?? fetchArtifactDownloader);
    const actual = sha256Hex(bytes);
    if (actual !== entry.artifact.sha256) {
      throw new IntegrityMismatchError(`The artifact of ${name} has sha256 ${actual}, but the registry says ${entry.artifact.sha256}; refusing to install it.`, {
        details: { expected: entry.artifact.sha256, actual, check: 'sha256' },
      });
    }
    const capabilities = typeof entry.capabilities === 'string' ? await this.readCapabilitiesFile(resolve(baseDir, entry.capabilities)) : entry.capabilities;
    const record: InstalledToolRecord = {
      name,
      display_name: entry.display_name,
      version: entry.version,
      wit_version: entry.wit_version,
      sha256: actual,
      capabilities,
      source_url: entry.artifact.url,
      installed_at: new Date().toISOString(),
    };
    const config = this.options.toolConfig?.[name];
    if (config) record.config = config;
    const version = await this.loadVersion(record, bytes);
    try {
      return { version, tool: this.options.loader.toolFor(name, version, record.display_name), record, bytes };
    } catch (error) {
      await version.pool.close();
      throw error;
    }
  }

  private async readCapabilitiesFile(path: string): Promise<Record<string, unknown>> {
    try {
      return JSON.parse(await readFile(path, 'utf8')) as Record<string, unknown>;
    } catch (error) {
      throw new CapabilitiesInvalidError(`Cannot read the capabilities file ${path}: ${error instanceof Error ? error.message : String(error)}.`, { cause: error });
    }
  }

  /** Compiles and starts a version, then checks the WIT version the component really imports. */
  private async loadVersion(record: InstalledToolRecord, bytes: Uint8Array): Promise<WasmToolVersion> {
    const capabilities = parseCapabilities(record.capabilities, `capabilities of ${record.name}`);
    const config = this.options.toolConfig?.[record.name] ?? record.config;
    const version = await this.options.loader.loadVersion({ bytes, capabilities, version: record.version, config }, record.name);
    if (version.witVersion !== undefined && version.witVersion !== record.wit_version) {
      await version.pool.close();
      throw new IntegrityMismatchError(`${record.name} declares wit_version ${record.wit_version} but its component imports talon:tool/host@${version.witVersion}.`, {
        details: { expected: record.wit_version, actual: version.witVersion, check: 'wit_version' },
      });
    }
    return version;
  }

  private exclusive<T>(name: string, work: () => Promise<T>): Promise<T> {
    const previous = this.locks.get(name) ?? Promise.resolve();
    const next = previous.catch(() => undefined).then(work);
    this.locks.set(name, next);
    void next.finally(() => {
      if (this.locks.get(name) === next) this.locks.delete(name);
    }).catch(() => undefined);
    return next;
  }
}
