import type { ToolInstaller } from './tool-installer.js';

/** Where shared installed state tells about changes (see {@link SharedInstalledToolsState.onChange}). */
export interface InstalledToolsChangeSource {
  onChange(listener: () => void): () => void;
}

/** What a follower reports after each reconcile that changed something or failed. */
export type InstalledToolsFollowerReport = Awaited<ReturnType<ToolInstaller['reconcile']>>;

/**
 * Keeps a runner's live tools equal to the shared state: after every change (any runner's), one reconcile
 * at a time, a burst of changes folded into the next one. A tool that fails to load (INTEGRITY_MISMATCH,
 * a forbidden import) stays out and is reported; the others are served.
 */
export class InstalledToolsFollower {
  private running: Promise<void> = Promise.resolve();
  private queued = false;
  private unlisten?: () => void;

  constructor(
    private readonly installer: ToolInstaller,
    private readonly source: InstalledToolsChangeSource,
    private readonly report: (result: InstalledToolsFollowerReport) => void,
  ) {}

  start(): void {
    this.unlisten ??= this.source.onChange(() => this.schedule());
  }

  /** Stops following; resolves when a reconcile under way has finished. */
  async stop(): Promise<void> {
    this.unlisten?.();
    this.unlisten = undefined;
    await this.running;
  }

  private schedule(): void {
    if (this.queued) return;
    this.queued = true;
    this.running = this.running.then(async () => {
      this.queued = false;
      try {
        const result = await this.installer.reconcile();
        const changed = result.installed.length + result.upgraded.length + result.removed.length;
        if (changed > 0 || result.failed.length > 0) this.report(result);
      } catch (error) {
        this.report({
          installed: [],
          upgraded: [],
          removed: [],
          failed: [{ name: '*', reason: error instanceof Error ? error.message : String(error) }],
        });
      }
    });
  }
}
