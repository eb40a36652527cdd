#!/usr/bin/env node
// Builds every tool in tools-src into tools-src/<name>/build/<name>.wasm:
//   - JavaScript tools (tools-src/<name>/<name>.js) with componentize-js, all WASI features disabled, so the
//     component imports only talon:tool/host;
//   - hand-written WAT tools (tools-src/wat/<name>.wat) with jco's wasm-tools API (parse, embed WIT, new
//     component), into tools-src/wat/build/<name>.wasm. A `<name>.wit` next to a WAT file replaces the Talon
//     WIT (world `<name>`), for fixtures that must import something else.
// A build is skipped when the sha256 of its inputs (source, WIT, toolchain versions) is unchanged.
// componentize-js output is not byte-for-byte reproducible, so after building a tool that has a registry entry
// (registry/tools/<name>.json) the entry's artifact.sha256 is refreshed to match what was built.
//
// Usage: node tools-src/build.mjs [name ...] [--force] [--quiet]
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, readdirSync, renameSync, writeFileSync } from 'node:fs';
import { register } from 'node:module';
import { basename, dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const TOOLS_DIR = dirname(fileURLToPath(import.meta.url));
const ROOT = dirname(TOOLS_DIR);
const WIT_FILE = join(ROOT, 'wit', 'talon-tool.wit');
const REGISTRY_DIR = join(ROOT, 'registry', 'tools');
const WORLD = 'sandboxed-tool';
const DISABLED_WASI_FEATURES = ['stdio', 'random', 'clocks', 'http', 'fetch-event'];

const args = process.argv.slice(2);
const force = args.includes('--force');
const quiet = args.includes('--quiet');
const only = args.filter((arg) => !arg.startsWith('--'));
const say = (line) => quiet || console.log(line);

function packageVersion(name) {
  // The packages' export maps hide package.json; read it from node_modules directly.
  return JSON.parse(readFileSync(join(ROOT, 'node_modules', name, 'package.json'), 'utf8')).version;
}

function sha256(...parts) {
  const hash = createHash('sha256');
  for (const part of parts) hash.update(part);
  return hash.digest('hex');
}

/** Every buildable tool: { name, kind, source, wit, world, outDir }. */
function discover() {
  const tools = [];
  for (const entry of readdirSync(TOOLS_DIR, { withFileTypes: true })) {
    if (!entry.isDirectory() || entry.name === 'wat' || entry.name === 'build' || entry.name.startsWith('.')) continue;
    const source = join(TOOLS_DIR, entry.name, `${entry.name}.js`);
    if (existsSync(source)) tools.push({ name: entry.name, kind: 'js', source, wit: WIT_FILE, world: WORLD, outDir: join(TOOLS_DIR, entry.name, 'build') });
  }
  const watDir = join(TOOLS_DIR, 'wat');
  for (const file of existsSync(watDir) ? readdirSync(watDir) : []) {
    if (!file.endsWith('.wat')) continue;
    const name = basename(file, '.wat');
    const ownWit = join(watDir, `${name}.wit`);
    const wit = existsSync(ownWit) ? ownWit : WIT_FILE;
    tools.push({ name, kind: 'wat', source: join(watDir, file), wit, world: wit === WIT_FILE ? WORLD : name, outDir: join(watDir, 'build') });
  }
  return tools;
}

async function buildJs(tool) {
  // componentize-js imports weval eagerly; weval needs a native binding that is not installed, and Talon never
  // uses AOT, so the import is answered with a stub (see no-aot-loader.mjs).
  register('./no-aot-loader.mjs', import.meta.url);
  const { componentize } = await import('@bytecodealliance/componentize-js');
  const { component } = await componentize({ sourcePath: tool.source, witPath: dirname(tool.wit), worldName: tool.world, disableFeatures: DISABLED_WASI_FEATURES });
  return component;
}

async function buildWat(tool) {
  const { parse, componentEmbed, componentNew } = await import('@bytecodealliance/jco');
  const core = await parse(readFileSync(tool.source, 'utf8'));
  // witSource, not witPath: the embedded wasm-tools cannot read files without preopens.
  const embedded = await componentEmbed({ binary: core, witSource: readFileSync(tool.wit, 'utf8'), world: tool.world });
  return componentNew(embedded);
}

function refreshRegistryEntry(name, artifactPath, digest) {
  const entryPath = join(REGISTRY_DIR, `${name}.json`);
  if (!existsSync(entryPath)) return false;
  const entry = JSON.parse(readFileSync(entryPath, 'utf8'));
  const url = relative(REGISTRY_DIR, artifactPath).split('\\').join('/');
  if (entry.artifact?.sha256 === digest && entry.artifact?.url === url) return false;
  entry.artifact = { ...entry.artifact, url, sha256: digest };
  // Atomic: test suites in parallel processes may run this build at the same time.
  writeFileSync(`${entryPath}.${process.pid}.tmp`, `${JSON.stringify(entry, null, 2)}\n`);
  renameSync(`${entryPath}.${process.pid}.tmp`, entryPath);
  return true;
}

async function main() {
  const toolchain = `componentize-js@${packageVersion('@bytecodealliance/componentize-js')} jco@${packageVersion('@bytecodealliance/jco')} features-off=${DISABLED_WASI_FEATURES.join(',')}`;
  const tools = discover().filter((tool) => only.length === 0 || only.includes(tool.name));
  const unknown = only.filter((name) => !tools.some((tool) => tool.name === name));
  if (unknown.length > 0) throw new Error(`unknown tool(s): ${unknown.join(', ')}`);
  const started = performance.now();
  let built = 0;
  for (const tool of tools) {
    const inputHash = sha256(toolchain, tool.kind, readFileSync(tool.source), readFileSync(tool.wit));
    const out = join(tool.outDir, `${tool.name}.wasm`);
    const stamp = join(tool.outDir, `${tool.name}.inputs.sha256`);
    if (!force && existsSync(out) && existsSync(stamp) && readFileSync(stamp, 'utf8') === inputHash) {
      const refreshed = refreshRegistryEntry(tool.name, out, sha256(readFileSync(out)));
      say(`skip   ${tool.name.padEnd(20)} unchanged${refreshed ? ' (registry sha256 refreshed)' : ''}`);
      continue;
    }
    const t0 = performance.now();
    const component = tool.kind === 'js' ? await buildJs(tool) : await buildWat(tool);
    mkdirSync(tool.outDir, { recursive: true });
    writeFileSync(`${out}.${process.pid}.tmp`, component);
    renameSync(`${out}.${process.pid}.tmp`, out);
    writeFileSync(`${stamp}.${process.pid}.tmp`, inputHash);
    renameSync(`${stamp}.${process.pid}.tmp`, stamp);
    const digest = sha256(component);
    const refreshed = refreshRegistryEntry(tool.name, out, digest);
    built++;
    say(`build  ${tool.name.padEnd(20)} ${((performance.now() - t0) / 1000).toFixed(1).padStart(5)} s  ${(component.length / 1024).toFixed(0).padStart(6)} KiB  sha256 ${digest.slice(0, 12)}${refreshed ? '  registry updated' : ''}`);
  }
  say(`${built} built, ${tools.length - built} up to date in ${((performance.now() - started) / 1000).toFixed(1)} s`);
}

main().catch((error) => {
  console.error(`tools-src build failed: ${error?.stack ?? error}`);
  process.exit(1);
});
