import type { ToolInstaller } from '@talon/wasm-host';
import type { RegistryFolderWatcher } from './registry-folder-watcher.js';

/** What the wasm-runner's WebAssembly tool wiring builds once at start. */
export interface WasmToolsRuntime {
  installer: ToolInstaller;
  registryWatcher: RegistryFolderWatcher;
}
