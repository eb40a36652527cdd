import { untilChanged } from '@talon/tool-runtime';
import type { ToolInstaller } from './tool-installer.js';

/** Where shared installed state tells about changes (see {@link SharedInstalledToolsState.onChange}). */
export interface InstalledToolsChangeSource {
  onChange(listener: () => void): () => void;
  /** The record of a tool in the shared state as this runner has seen it so far. */
  get(name: string): unknown;
}

/** How long {@link InstalledToolsFollower.catchUp} waits for a record it has not seen yet. */
export const RECORD_WAIT_MS = 250;

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

  /**
   * Loads a tool now if the shared state has it: with several runners, a call can reach this one right
   * after another runner installed the tool, before this one followed. The record itself may still be on
   * its way (the watch and the call travel apart): it is waited for up to `recordWaitMs`. Resolves once the
   * reconcile that loads it has run, at once when there is no such record.
   */
  async catchUp(name: string, recordWaitMs = RECORD_WAIT_MS): Promise<void> {
    const known = () => this.source.get(name) !== undefined;
    if (!(await untilChanged((listener) => this.source.onChange(listener), known, recordWaitMs))) return;
    this.schedule();
    await this.running;
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
