import type { InstalledToolsFollower, ToolInstaller } from '@talon/wasm-host';
import type { RecordBucket } from '@talon/shared-state';
import type { RegistryFolderWatcher } from './registry-folder-watcher.js';

/** What the wasm-runner's WebAssembly tool wiring builds once at start. */
export interface WasmToolsRuntime {
  installer: ToolInstaller;
  registryWatcher: RegistryFolderWatcher;
  /** Follows installs, upgrades and removes made by any runner. */
  follower: InstalledToolsFollower;
  /** Stops calls for tools not loaded here from waiting for the follower. */
  stopCatchingUp: () => void;
  /** The shared tool records (its watch stops at shutdown). */
  records: RecordBucket<unknown>;
}
