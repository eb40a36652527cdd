import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { AllowlistEntry } from '@talon/safety';
import { parseSsrfAllowlist } from '@talon/service-runtime';

/** The install root (holds `registry/`), found from this file in `apps/wasm-runner/dist/wasm`. */
const INSTALL_ROOT = fileURLToPath(new URL('../../../../', import.meta.url));

/** Settings of the wasm-runner's WebAssembly tools, read once at start. */
export interface WasmToolsConfig {
  /** The registry folder holding `tools/*.json` and `_bundles.json`. Default `<root>/registry` (env `TALON_TOOL_REGISTRY_DIR`). */
  registryDir: string;
  /** Transpiled components, one folder per sha256: `<stateDir>/wasm/cache`. */
  cacheDir: string;
  /** Installed tools and their artifacts: `<stateDir>/wasm/installed`. */
  installedDir: string;
  /** Private ranges component HTTP may reach (env `TALON_SSRF_ALLOWLIST`); none by default. */
  ssrfAllowlist: AllowlistEntry[];
}

export function parseWasmToolsConfig(
  env: NodeJS.ProcessEnv,
  stateDir: string,
  cwd = process.cwd(),
): WasmToolsConfig {
  const root = resolve(cwd, env.TALON_ROOT || INSTALL_ROOT);
  return {
    registryDir: resolve(cwd, env.TALON_TOOL_REGISTRY_DIR || resolve(root, 'registry')),
    cacheDir: resolve(stateDir, 'wasm', 'cache'),
    installedDir: resolve(stateDir, 'wasm', 'installed'),
    ssrfAllowlist: parseSsrfAllowlist(env.TALON_SSRF_ALLOWLIST),
  };
}
