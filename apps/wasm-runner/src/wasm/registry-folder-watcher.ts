import { watch, type FSWatcher } from 'node:fs';
import { join } from 'node:path';
import type { JsonLogger } from '@talon/service-runtime';
import type { ToolPackageRegistry } from '@talon/wasm-host';

/** Quiet time after the last change before the registry folder is re-read. */
const RELOAD_DEBOUNCE_MS = 200;

/**
 * Re-reads the tool registry when its folder changes, so `tool_search` and `extension_info` see added or
 * edited entries without a restart (install and upgrade re-read it themselves before acting).
 */
export class RegistryFolderWatcher {
  private watcher?: FSWatcher;
  private timer?: NodeJS.Timeout;

  constructor(
    private readonly registryDir: string,
    private readonly registry: ToolPackageRegistry,
    private readonly logger: JsonLogger,
  ) {}

  start(): void {
    try {
      this.watcher = watch(join(this.registryDir, 'tools'), () => this.schedule());
      this.watcher.on('error', (error) =>
        this.logger.write('warn', 'tool registry watch stopped', { error: error.message }),
      );
    } catch (error) {
      // A missing folder is not fatal: install and upgrade still re-read it.
      this.logger.write('warn', 'tool registry folder not watched', {
        dir: this.registryDir,
        error: (error as Error).message,
      });
    }
  }

  stop(): void {
    clearTimeout(this.timer);
    this.watcher?.close();
  }

  private schedule(): void {
    clearTimeout(this.timer);
    this.timer = setTimeout(() => {
      this.registry
        .reload()
        .catch((error: unknown) =>
          this.logger.write('warn', 'tool registry reload failed', { error: String(error) }),
        );
    }, RELOAD_DEBOUNCE_MS);
    this.timer.unref();
  }
}
