import type { ToolDefinition } from '@talon/contracts';
import type { ArtifactDownloader } from './artifact-source.js';
import { sha256Hex } from './component-compiler.js';
import type { ComponentToolLoader } from './component-tool-loader.js';
import { IntegrityMismatchError } from './errors/integrity-mismatch-error.js';
import { ToolAlreadyInstalledError } from './errors/tool-already-installed-error.js';
import { ToolNotInstalledError } from './errors/tool-not-installed-error.js';
import type { InstalledToolsState } from './installed-tools-store.js';
import type { RegistryEntry } from './registry-entry.js';
import type {
  LocatedRegistryEntry,
  RegistrySearchHit,
  ToolPackageRegistry,
} from './tool-package-registry.js';
import { ToolVersionPreparer, toolSource, type PreparedVersion } from './tool-version-preparer.js';
import type { WasmTool, WasmToolVersion } from './wasm-tool.js';
import type { PoolStats } from './worker-pool.js';

/** What the installer needs. */
export interface ToolInstallerOptions {
  registry: ToolPackageRegistry;
  store: InstalledToolsState;
  loader: ComponentToolLoader;
  /** Defaults to `SUPPORTED_WIT_VERSIONS`. */
  supportedWitVersions?: readonly string[];
  /** For http(s) artifacts; defaults to the global fetch with a byte cap (plug in the SSRF-guarded one). */
  download?: ArtifactDownloader;
  /** Defaults to `DEFAULT_MAX_ARTIFACT_BYTES` (64 MiB). */
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

/**
 * Installs, upgrades and removes component tools from the registry, live: a tool is callable as soon as
 * `install` resolves, an upgrade lets calls already running finish on the old version, and the installed
 * set is persisted so `restore()` brings it back after a restart.
 */
export class ToolInstaller {
  private readonly tools = new Map<string, WasmTool>();
  private readonly locks = new Map<string, Promise<unknown>>();
  private readonly preparer: ToolVersionPreparer;

  constructor(private readonly options: ToolInstallerOptions) {
    this.preparer = new ToolVersionPreparer(options);
  }

  /** Loads every persisted tool after a restart; a tool that fails to load is reported, not fatal. */
  async restore(): Promise<{
    restored: string[];
    failed: { name: string; reason: string; code?: string }[];
  }> {
    const result = await this.reconcile();
    return { restored: result.installed, failed: result.failed };
  }

  /**
   * Aligns the live tools with the persisted state (re-read first): loads tools installed by another
   * instance, swaps versions upgraded elsewhere, and drops tools removed elsewhere.
   */
  async reconcile(): Promise<{
    installed: string[];
    upgraded: string[];
    removed: string[];
    failed: { name: string; reason: string; code?: string }[];
  }> {
    await this.options.store.reload();
    const result = {
      installed: [] as string[],
      upgraded: [] as string[],
      removed: [] as string[],
      failed: [] as { name: string; reason: string; code?: string }[],
    };
    const records = new Map(this.options.store.list().map((record) => [record.name, record]));
    for (const name of [...this.tools.keys()]) {
      if (records.has(name)) continue;
      await this.exclusive(name, async () => {
        const tool = this.tools.get(name);
        if (!tool || this.options.store.get(name)) return;
        this.tools.delete(name);
        result.removed.push(name);
        this.options.onChange?.({ kind: 'removed', name });
        await tool.version.pool.close().catch(() => undefined);
      });
    }
    for (const listed of records.values()) {
      await this.exclusive(listed.name, async () => {
        // Re-read under the lock: a remove or upgrade may have run while this waited.
        const record = this.options.store.get(listed.name);
        if (!record) return;
        const current = this.tools.get(record.name);
        if (current?.version.sha256 === record.sha256) return;
        try {
          const bytes = await this.options.store.readArtifact(record);
          if (sha256Hex(bytes) !== record.sha256)
            throw new IntegrityMismatchError(
              `The stored artifact of ${record.name} no longer matches its sha256; reinstall it.`,
            );
          const version = await this.preparer.loadVersion(record, bytes);
          let tool: WasmTool;
          try {
            tool = this.options.loader.toolFor(record.name, version, record.display_name, toolSource(record));
          } catch (error) {
            await version.pool.close();
            throw error;
          }
          if (current) {
            const previous = current.replace(version);
            result.upgraded.push(record.name);
            this.options.onChange?.({
              kind: 'upgraded',
              name: record.name,
              version: record.version,
              tool: current,
            });
            void previous.pool.close().catch(() => undefined);
          } else {
            this.tools.set(record.name, tool);
            result.installed.push(record.name);
            this.options.onChange?.({ kind: 'installed', name: record.name, version: record.version, tool });
          }
        } catch (error) {
          const code = (error as { code?: unknown }).code;
          result.failed.push({
            name: record.name,
            reason: error instanceof Error ? error.message : String(error),
            ...(typeof code === 'string' ? { code } : {}),
          });
        }
      });
    }
    return result;
  }

  search(query: string, limit?: number): RegistrySearchHit[] {
    return this.options.registry.search(query, limit);
  }

  /** Installs a registry tool (or the given entry). @throws IntegrityMismatchError, ForbiddenImportError, ToolAlreadyInstalledError */
  install(name: string, entry?: LocatedRegistryEntry): Promise<InstalledToolInfo> {
    return this.exclusive(name, async () => {
      if (this.tools.has(name))
        throw new ToolAlreadyInstalledError(
          `${name} is already installed; use upgrade to change its version.`,
        );
      const prepared = await this.prepareUploading(name, entry);
      try {
        // ifAbsent: when two runners install the same name at once, one record wins and the other is refused.
        await this.options.store.put(prepared.record, undefined, { ifAbsent: true });
      } catch (error) {
        await prepared.version.pool.close().catch(() => undefined);
        throw error;
      }
      const tool = prepared.tool;
      this.tools.set(name, tool);
      this.options.onChange?.({ kind: 'installed', name, version: prepared.record.version, tool });
      return this.describe(name);
    });
  }

  /** Installs every tool of a bundle that is not installed yet. */
  async installBundle(bundleName: string): Promise<InstalledToolInfo[]> {
    const bundle = this.options.registry.bundles().find((candidate) => candidate.name === bundleName);
    if (!bundle)
      throw new ToolNotInstalledError(`No bundle named ${bundleName} in the registry; see the bundle list.`);
    const installed: InstalledToolInfo[] = [];
    for (const name of bundle.tools)
      installed.push(this.tools.has(name) ? this.describe(name) : await this.install(name));
    return installed;
  }

  /**
   * Moves an installed tool to the registry's current version (or the given entry). New calls use the new
   * version at once; calls already running finish on the old one, whose workers stop afterwards.
   */
  upgrade(name: string, entry?: LocatedRegistryEntry): Promise<InstalledToolInfo> {
    return this.exclusive(name, async () => {
      const tool = this.requireTool(name);
      const located = this.preparer.locate(name, entry);
      if (located.entry.artifact.sha256 === this.options.store.get(name)?.sha256) return this.describe(name);
      const prepared = await this.prepareUploading(name, located);
      try {
        await this.options.store.put(prepared.record);
      } catch (error) {
        await prepared.version.pool.close().catch(() => undefined);
        throw error;
      }
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
    if (!installed && !registry)
      throw new ToolNotInstalledError(
        `No tool named ${name} is installed or in the registry; try tool_search.`,
      );
    return {
      installed,
      registry,
      upgradeAvailable: Boolean(installed && registry && registry.artifact.sha256 !== installed.sha256),
    };
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

  /**
   * Prepares a version while its artifact uploads to the shared store (both take about as long for a
   * large component: 12 MB measured 190 ms to upload), before any record names it. An upload left by a
   * version that failed to start is pruned again.
   */
  private async prepareUploading(name: string, entry?: LocatedRegistryEntry): Promise<PreparedVersion> {
    let uploaded: string | undefined;
    try {
      return await this.preparer.prepare(name, entry, async (record, bytes) => {
        await this.options.store.putArtifact(record.sha256, bytes);
        uploaded = record.sha256;
      });
    } catch (error) {
      if (uploaded) await this.options.store.pruneArtifact(uploaded).catch(() => undefined);
      throw error;
    }
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
    if (!tool)
      throw new ToolNotInstalledError(`${name} is not installed; see tool_list, or install it first.`);
    return tool;
  }

  private async retire(version: WasmToolVersion): Promise<void> {
    await version.pool.close().catch(() => undefined);
    await this.options.store.pruneArtifact(version.sha256).catch(() => undefined);
  }

  private exclusive<T>(name: string, work: () => Promise<T>): Promise<T> {
    const previous = this.locks.get(name) ?? Promise.resolve();
    const next = previous.catch(() => undefined).then(work);
    this.locks.set(name, next);
    void next
      .finally(() => {
        if (this.locks.get(name) === next) this.locks.delete(name);
      })
      .catch(() => undefined);
    return next;
  }
}
