import { ToolNameConflictError, type ToolRegistry } from '@talon/tool-runtime';
import {
  ToolInstaller,
  type InstalledToolInfo,
  type LocatedRegistryEntry,
  type ToolInstallerOptions,
} from '@talon/wasm-host';

/**
 * The wasm-runner's {@link ToolInstaller}: re-reads the registry folder before an install or upgrade (so an
 * edited or added entry counts without a restart), and refuses, before anything is read or stored, a tool
 * whose name a built-in (or a tool from another source) owns in the runner's registry.
 */
export class RunnerToolInstaller extends ToolInstaller {
  constructor(
    private readonly runnerOptions: ToolInstallerOptions,
    private readonly toolRegistry: ToolRegistry,
  ) {
    super(runnerOptions);
  }

  /** @throws ToolNameConflictError when the name is protected or taken by another source. */
  override async install(name: string, entry?: LocatedRegistryEntry): Promise<InstalledToolInfo> {
    if (this.toolRegistry.isProtected(name)) throw new ToolNameConflictError(name, 'protected');
    if (this.toolRegistry.has(name) && !this.get(name)) throw new ToolNameConflictError(name, 'taken');
    if (!entry) await this.runnerOptions.registry.reload();
    return super.install(name, entry);
  }

  override async upgrade(name: string, entry?: LocatedRegistryEntry): Promise<InstalledToolInfo> {
    if (!entry) await this.runnerOptions.registry.reload();
    return super.upgrade(name, entry);
  }

  override async installBundle(bundleName: string): Promise<InstalledToolInfo[]> {
    await this.runnerOptions.registry.reload();
    return super.installBundle(bundleName);
  }
}
