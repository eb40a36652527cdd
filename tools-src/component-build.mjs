// Builds WebAssembly components for the talon:tool WIT, byte for byte reproducibly. Used by build.mjs for the
// tools in tools-src and by the tool builder (compile-tool.mjs) for generated tools.
//
// - JavaScript: componentize-js with all WASI features disabled (the component imports only talon:tool/host). Three
//   inputs that changed from build to build are pinned: the source is passed as text (the engine sees `source.js`
//   in a fixed folder, not the checkout's absolute path); the pre-initialisation runs in deterministic-wizer
//   (fixed randomness, clocks and paths instead of the native wizer's real ones); the splicer's wall clock reads
//   SOURCE_DATE_EPOCH (componentize-loader.mjs). A source that imports other files is not supported.
// - WAT: jco's wasm-tools API (parse, embed WIT, new component), deterministic already.
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { register } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const TOOLS_DIR = dirname(fileURLToPath(import.meta.url));
const ROOT = dirname(TOOLS_DIR);
/** The Talon WIT file and its world. */
export const WIT_FILE = join(ROOT, 'wit', 'talon-tool.wit');
export const WORLD = 'sandboxed-tool';
/** Every componentize-js WASI feature, all disabled. */
export const DISABLED_WASI_FEATURES = ['stdio', 'random', 'clocks', 'http', 'fetch-event'];
const WIZER = join(TOOLS_DIR, 'deterministic-wizer');
const PINNING_FILES = ['component-build.mjs', 'componentize-loader.mjs', 'deterministic-wizer.mjs', 'wasm-module-snapshot.mjs'];

function packageVersion(name) {
  // The packages' export maps hide package.json; read it from node_modules directly.
  return JSON.parse(readFileSync(join(ROOT, 'node_modules', name, 'package.json'), 'utf8')).version;
}

/** What the output depends on besides the sources: tool versions, the disabled features, the pinning scripts. */
export function toolchainId() {
  const pinning = createHash('sha256');
  for (const file of PINNING_FILES) pinning.update(readFileSync(join(TOOLS_DIR, file)));
  return `componentize-js@${packageVersion('@bytecodealliance/componentize-js')} jco@${packageVersion('@bytecodealliance/jco')} features-off=${DISABLED_WASI_FEATURES.join(',')} pinning=${pinning.digest('hex').slice(0, 16)} epoch=${process.env.SOURCE_DATE_EPOCH ?? 0}`;
}

let loaderRegistered = false;

/**
 * A component from JavaScript source text. `witDir` holds the WIT package, `world` names the world.
 * @returns {Promise<Uint8Array>}
 */
export async function buildJsComponent(source, { witDir = dirname(WIT_FILE), world = WORLD, maxMemoryMb } = {}) {
  if (!loaderRegistered) {
    register('./componentize-loader.mjs', import.meta.url);
    loaderRegistered = true;
  }
  const { componentize } = await import('@bytecodealliance/componentize-js');
  // componentize-js strips the current directory from its temp folder's path when the folder is inside it (with
  // cwd /tmp, `source.js` became `e.js`); build from a folder that holds no temp folder.
  const cwd = process.cwd();
  if (tmpdir().startsWith(TOOLS_DIR)) throw new Error(`TMPDIR (${tmpdir()}) must not be inside ${TOOLS_DIR}`);
  process.chdir(TOOLS_DIR);
  const { component } = await componentize(source, {
    sourceName: 'source.js',
    witPath: witDir,
    worldName: world,
    disableFeatures: DISABLED_WASI_FEATURES,
    wizerBin: WIZER,
    env: {
      TALON_BUILD_NODE: process.execPath,
      ...(process.env.SOURCE_DATE_EPOCH ? { SOURCE_DATE_EPOCH: process.env.SOURCE_DATE_EPOCH } : {}),
      ...(maxMemoryMb ? { TALON_WIZER_MAX_MEMORY_MB: String(maxMemoryMb) } : {}),
    },
  }).finally(() => process.chdir(cwd));
  return component;
}

/** A component from WAT text and a WIT source. */
export async function buildWatComponent(wat, witSource, world) {
  const { parse, componentEmbed, componentNew } = await import('@bytecodealliance/jco');
  const core = await parse(wat);
  // witSource, not witPath: the embedded wasm-tools cannot read files without preopens.
  const embedded = await componentEmbed({ binary: core, witSource, world });
  return componentNew(embedded);
}
