import { ToolNameConflictError, type ToolRegistry } from '@talon/tool-runtime';
import { ToolInstaller, type InstalledToolInfo, type LocatedRegistryEntry, type ToolInstallerOptions } from '@talon/wasm-host';

/**
 * A {@link ToolInstaller} that refuses, before anything is downloaded or stored, a tool whose name a
 * built-in (or any tool not from the installer) already owns in the runner's registry.
 */
export class NameCheckedToolInstaller extends ToolInstaller {
  constructor(
    options: ToolInstallerOptions,
    private readonly registry: ToolRegistry,
  ) {
    super(options);
  }

  /** @throws ToolNameConflictError when the name is protected or taken by another source. */
  override install(name: string, entry?: LocatedRegistryEntry): Promise<InstalledToolInfo> {
    if (this.registry.isProtected(name)) return Promise.reject(new ToolNameConflictError(name, 'protected'));
    if (this.registry.has(name) && !this.get(name)) return Promise.reject(new ToolNameConflictError(name, 'taken'));
    return super.install(name, entry);
  }
}
