import { mkdir, open, readFile, rename, rm } from 'node:fs/promises';
import { join } from 'node:path';
import type { ArtifactBucket, RecordBucket } from '@talon/shared-state';
import { sha256Hex } from './component-compiler.js';
import { ToolAlreadyInstalledError } from './errors/tool-already-installed-error.js';
import {
  temporaryNameFor,
  type InstalledToolPutOptions,
  type InstalledToolRecord,
  type InstalledToolsState,
} from './installed-tools-store.js';

/** What {@link SharedInstalledToolsState} keeps its state in. */
export interface SharedInstalledToolsStateOptions {
  /** Tool records by name (JetStream KV `talon_wasm_tools` in a deployment). */
  records: RecordBucket<InstalledToolRecord>;
  /** Artifacts by sha256 (JetStream object store `talon_wasm_artifacts`). */
  artifacts: ArtifactBucket;
  /** This runner's cache of artifacts, `<sha256>.wasm`; filled on first read, checked on every read. */
  cacheDir: string;
}

/**
 * Installed tools shared by every wasm-runner: records and artifacts live in JetStream, this runner only
 * caches artifacts on disk. A record another runner writes shows in `list()` as soon as the watch delivers
 * it; `onChange` tells the installer to reconcile. A cached or stored artifact whose bytes do not hash to
 * its record's sha256 is refused (INTEGRITY_MISMATCH) and never loaded.
 */
export class SharedInstalledToolsState implements InstalledToolsState {
  private constructor(private readonly options: SharedInstalledToolsStateOptions) {}

  static async open(options: SharedInstalledToolsStateOptions): Promise<SharedInstalledToolsState> {
    await mkdir(options.cacheDir, { recursive: true });
    return new SharedInstalledToolsState(options);
  }

  list(): InstalledToolRecord[] {
    return [...this.options.records.entries().values()].sort((a, b) => a.name.localeCompare(b.name));
  }

  get(name: string): InstalledToolRecord | undefined {
    return this.options.records.get(name);
  }

  /** Calls `listener` after every change any runner makes; returns the way to stop. */
  onChange(listener: () => void): () => void {
    return this.options.records.onChange(() => listener());
  }

  async readArtifact(record: InstalledToolRecord): Promise<Uint8Array> {
    const cached = await readFile(this.cachePath(record.sha256)).catch(() => undefined);
    if (cached && sha256Hex(cached) === record.sha256) return cached;
    const bytes = await this.options.artifacts.get(record.sha256);
    await this.cache(record.sha256, bytes);
    return bytes;
  }

  /** Uploads the artifact (if given, before the record, so no replica sees a record without it), then the record. */
  async put(
    record: InstalledToolRecord,
    artifact?: Uint8Array,
    options: InstalledToolPutOptions = {},
  ): Promise<void> {
    if (artifact) await this.putArtifact(record.sha256, artifact);
    if (!options.ifAbsent) return this.options.records.put(record.name, record);
    if (!(await this.options.records.create(record.name, record)))
      throw new ToolAlreadyInstalledError(
        `${record.name} was just installed by another runner; use upgrade to change its version.`,
      );
  }

  /**
   * Uploads the artifact and keeps this runner's copy at the same time (the copy's fsync takes about as long
   * as the upload). A failed upload takes the copy back unless a record uses those bytes.
   */
  async putArtifact(sha256: string, artifact: Uint8Array): Promise<void> {
    const [stored, cached] = await Promise.allSettled([
      this.options.artifacts.put(sha256, artifact),
      this.cache(sha256, artifact),
    ]);
    if (stored.status === 'rejected') {
      if (cached.status === 'fulfilled' && !this.inUse(sha256))
        await rm(this.cachePath(sha256), { force: true }).catch(() => undefined);
      throw stored.reason;
    }
    if (cached.status === 'rejected') throw cached.reason;
  }

  async delete(name: string): Promise<void> {
    const record = this.get(name);
    await this.options.records.delete(name);
    if (record) await this.pruneArtifact(record.sha256);
  }

  /**
   * Deletes an artifact no record refers to, here and in the store. A runner installing the same bytes at
   * that moment uploads them again before writing its record, so the store heals on the next install.
   */
  async pruneArtifact(sha256: string): Promise<void> {
    if (this.inUse(sha256)) return;
    await rm(this.cachePath(sha256), { force: true });
    await this.options.artifacts.delete(sha256);
  }

  /** The watch keeps the records current: nothing to re-read. */
  async reload(): Promise<void> {}

  /** Whether a record refers to these bytes. */
  private inUse(sha256: string): boolean {
    return this.list().some((record) => record.sha256 === sha256);
  }

  private cachePath(sha256: string): string {
    return join(this.options.cacheDir, `${sha256}.wasm`);
  }

  /** Writes the cache atomically under a name no other runner on a shared folder picks, flushed first. */
  private async cache(sha256: string, bytes: Uint8Array): Promise<void> {
    const path = this.cachePath(sha256);
    const temporary = temporaryNameFor(path);
    const handle = await open(temporary, 'w', 0o600);
    try {
      await handle.writeFile(bytes);
      await handle.sync();
    } finally {
      await handle.close();
    }
    await rename(temporary, path);
  }
}
