import type { JsonLogger } from '@talon/service-runtime';
import type { Tool, ToolRegistry } from '@talon/tool-runtime';
import type { InstalledToolChange } from '@talon/wasm-host';

/**
 * Mirrors the installer's changes into the runner's registry, whose `onChange` makes the tool host
 * re-announce at once: installed tools are callable without a restart, removed ones disappear. A name
 * a built-in owns is refused by the registry with `ToolNameConflictError`; that is logged, never fatal.
 */
export class InstalledToolsCatalogBridge {
  constructor(
    private readonly registry: ToolRegistry,
    private readonly logger: JsonLogger,
  ) {}

  /** The installer's `onChange` hook. */
  readonly apply = (change: InstalledToolChange): void => {
    if (change.kind === 'removed') {
      const source = this.registry.get(change.name)?.definition.source;
      if (source === 'wasm' || source === 'built') this.registry.unregister(change.name);
      this.logger.write('info', 'wasm tool removed', { tool: change.name });
      return;
    }
    if (!change.tool) return;
    try {
      // An upgrade keeps the same WasmTool object; registering again refreshes the announced definition.
      this.registry.register(change.tool as unknown as Tool, { replace: change.kind === 'upgraded' });
      this.logger.write('info', `wasm tool ${change.kind}`, { tool: change.name, version: change.version });
    } catch (error) {
      this.logger.write('error', 'wasm tool not registered', {
        tool: change.name,
        code: (error as { code?: string }).code,
        error: (error as Error).message,
      });
    }
  };
}
