import { watch, type FSWatcher } from 'chokidar';
import { resolve } from 'node:path';
import { discoverSkills, isDirectory, type DiscoveryOptions, type SkillSnapshot } from './skill-discovery.js';

/** Default quiet period after a file event before discovery re-runs. */
export const DEFAULT_WATCH_DEBOUNCE_MS = 150;
/** Default interval at which missing skill directories are checked for appearing. */
export const DEFAULT_MISSING_DIR_POLL_MS = 2000;

/** Options of {@link SkillWatcher}. */
export interface SkillWatcherOptions extends DiscoveryOptions {
  /** Default 150 ms. */
  debounceMs?: number;
  /** Default 2000 ms. */
  missingDirPollMs?: number;
}

/** Receives every new snapshot. */
export type SnapshotListener = (snapshot: SkillSnapshot) => void;

/**
 * Watches the skill directories and re-runs discovery (debounced, one run at a time) on every addition,
 * change or removal, handing each new snapshot to the listeners. Directories that do not exist yet are
 * picked up when they appear.
 */
export class SkillWatcher {
  private snapshot: SkillSnapshot | undefined;
  private watcher: FSWatcher | undefined;
  private timer: NodeJS.Timeout | undefined;
  private poller: NodeJS.Timeout | undefined;
  private running: Promise<SkillSnapshot> | undefined;
  private closed = false;
  private readonly watched = new Set<string>();
  private readonly listeners = new Set<SnapshotListener>();
  private readonly errorListeners = new Set<(error: unknown) => void>();

  constructor(private options: SkillWatcherOptions) {}

  /** Runs the first discovery and starts watching. Resolves with the first snapshot. */
  async start(): Promise<SkillSnapshot> {
    this.watcher = watch([], { ignoreInitial: true, depth: 4, persistent: true });
    this.watcher.on('all', () => this.schedule());
    this.watcher.on('error', (error) => this.emitError(error));
    await this.watchExistingDirs();
    this.poller = setInterval(
      () => void this.pollMissingDirs(),
      this.options.missingDirPollMs ?? DEFAULT_MISSING_DIR_POLL_MS,
    );
    this.poller.unref();
    return this.refresh();
  }

  /** The latest snapshot (throws before `start`). */
  current(): SkillSnapshot {
    if (!this.snapshot) throw new Error('SkillWatcher.current() called before start(); await start() first.');
    return this.snapshot;
  }

  /** Subscribes to new snapshots; returns the unsubscribe function. */
  onSnapshot(listener: SnapshotListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Subscribes to watcher and discovery errors (discovery itself never throws for bad files). */
  onError(listener: (error: unknown) => void): () => void {
    this.errorListeners.add(listener);
    return () => this.errorListeners.delete(listener);
  }

  /** Re-runs discovery now (e.g. after an install) and resolves with the new snapshot. Runs never overlap. */
  async refresh(): Promise<SkillSnapshot> {
    while (this.running) await this.running.catch(() => undefined);
    this.running = this.discover();
    try {
      return await this.running;
    } finally {
      this.running = undefined;
    }
  }

  /**
   * Gates `requires.mcp` against these server names from now on (they change when servers are added or
   * removed at run time) and re-runs discovery; resolves with the new snapshot.
   */
  async setMcpServers(names: readonly string[]): Promise<SkillSnapshot> {
    this.options = { ...this.options, mcpServers: [...names] };
    return this.refresh();
  }

  private async discover(): Promise<SkillSnapshot> {
    await this.watchExistingDirs();
    const snapshot = await discoverSkills({
      ...this.options,
      generation: (this.snapshot?.generation ?? -1) + 1,
    });
    this.snapshot = snapshot;
    if (!this.closed) {
      for (const listener of this.listeners) {
        try {
          listener(snapshot);
        } catch (error) {
          this.emitError(error);
        }
      }
    }
    return snapshot;
  }

  /** Stops watching; no snapshot is emitted afterwards. */
  async close(): Promise<void> {
    this.closed = true;
    if (this.timer) clearTimeout(this.timer);
    if (this.poller) clearInterval(this.poller);
    await this.watcher?.close();
  }

  private schedule(): void {
    if (this.closed) return;
    if (this.timer) clearTimeout(this.timer);
    this.timer = setTimeout(() => {
      this.timer = undefined;
      this.refresh().catch((error) => this.emitError(error));
    }, this.options.debounceMs ?? DEFAULT_WATCH_DEBOUNCE_MS);
  }

  private async watchExistingDirs(): Promise<boolean> {
    let added = false;
    for (const dir of Object.values(this.options.dirs)) {
      if (!dir) continue;
      const path = resolve(dir);
      const exists = await isDirectory(path);
      if (this.watched.has(path) && !exists) {
        // Forget a removed directory so that it is watched afresh when it comes back.
        this.watched.delete(path);
        this.watcher?.unwatch(path);
        continue;
      }
      if (this.watched.has(path) || !exists) continue;
      this.watched.add(path);
      this.watcher?.add(path);
      added = true;
    }
    return added;
  }

  private async pollMissingDirs(): Promise<void> {
    if (this.closed) return;
    if (await this.watchExistingDirs()) this.schedule();
  }

  private emitError(error: unknown): void {
    for (const listener of this.errorListeners) listener(error);
  }
}
