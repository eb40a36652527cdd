import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { AllowlistEntry } from '@talon/safety';
import { parseSsrfAllowlist, readPositiveInt } from '@talon/service-runtime';
import { DEFAULT_COMPILE_TIMEOUT_MS } from '@talon/wasm-host';

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
  /** Tools made by the tool builder, one folder per version: `<stateDir>/wasm/built`. */
  builtDir: string;
  /** The WIT generated tools are written against: `<root>/wit/talon-tool.wit`. */
  witFile: string;
  /** The compile entry of generated tools: `<root>/tools-src/compile-tool.mjs`. */
  compileScript: string;
  /** Deadline of one compile of a generated tool (env `TALON_TOOL_BUILD_COMPILE_TIMEOUT_MS`, default 180000). */
  compileTimeoutMs: number;
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
    builtDir: resolve(stateDir, 'wasm', 'built'),
    witFile: resolve(root, 'wit', 'talon-tool.wit'),
    compileScript: resolve(root, 'tools-src', 'compile-tool.mjs'),
    compileTimeoutMs: readPositiveInt(env, 'TALON_TOOL_BUILD_COMPILE_TIMEOUT_MS', DEFAULT_COMPILE_TIMEOUT_MS),
  };
}
