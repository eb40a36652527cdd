#!/usr/bin/env node
// Builds every tool in tools-src into tools-src/<name>/build/<name>.wasm:
//   - JavaScript tools (tools-src/<name>/<name>.js) with componentize-js, all WASI features disabled, so the
//     component imports only talon:tool/host;
//   - hand-written WAT tools (tools-src/wat/<name>.wat) with jco's wasm-tools API (parse, embed WIT, new
//     component), into tools-src/wat/build/<name>.wasm. A `<name>.wit` next to a WAT file replaces the Talon
//     WIT (world `<name>`), for fixtures that must import something else.
// Builds are reproducible (component-build.mjs): the same source and toolchain give the same bytes, so the sha256
// pinned in registry/tools/<name>.json is checked, never rewritten, unless --update-registry is given (after
// changing a tool's source). A build is skipped when the sha256 of its inputs (source, WIT, toolchain) is unchanged.
//
// Usage: node tools-src/build.mjs [name ...] [--force] [--quiet] [--check] [--update-registry]
//   --check            exit 1 when a built tool does not match its registry entry
//   --update-registry  write the built sha256 into the registry entries that differ
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, readdirSync, renameSync, writeFileSync } from 'node:fs';
import { basename, dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { WIT_FILE, WORLD, buildJsComponent, buildWatComponent, toolchainId } from './component-build.mjs';

const TOOLS_DIR = dirname(fileURLToPath(import.meta.url));
const ROOT = dirname(TOOLS_DIR);
const REGISTRY_DIR = join(ROOT, 'registry', 'tools');

const args = process.argv.slice(2);
const force = args.includes('--force');
const quiet = args.includes('--quiet');
const check = args.includes('--check');
const updateRegistry = args.includes('--update-registry');
const only = args.filter((arg) => !arg.startsWith('--'));
const say = (line) => quiet || console.log(line);

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
  for (const file of existsSync(watDir) ? readdirSync(watDir).sort() : []) {
    if (!file.endsWith('.wat')) continue;
    const name = basename(file, '.wat');
    const ownWit = join(watDir, `${name}.wit`);
    const wit = existsSync(ownWit) ? ownWit : WIT_FILE;
    tools.push({ name, kind: 'wat', source: join(watDir, file), wit, world: wit === WIT_FILE ? WORLD : name, outDir: join(watDir, 'build') });
  }
  return tools.sort((a, b) => a.name.localeCompare(b.name));
}

function build(tool) {
  return tool.kind === 'js'
    ? buildJsComponent(readFileSync(tool.source, 'utf8'), { witDir: dirname(tool.wit), world: tool.world })
    : buildWatComponent(readFileSync(tool.source, 'utf8'), readFileSync(tool.wit, 'utf8'), tool.world);
}

/** Compares a built artifact with its registry entry: 'none' (no entry), 'match', 'updated' or 'differs'. */
function compareWithRegistry(name, artifactPath, digest) {
  const entryPath = join(REGISTRY_DIR, `${name}.json`);
  if (!existsSync(entryPath)) return 'none';
  const entry = JSON.parse(readFileSync(entryPath, 'utf8'));
  const url = relative(REGISTRY_DIR, artifactPath).split('\\').join('/');
  if (entry.artifact?.sha256 === digest && entry.artifact?.url === url) return 'match';
  if (!updateRegistry) return 'differs';
  entry.artifact = { ...entry.artifact, url, sha256: digest };
  // Atomic: test suites in parallel processes may run this build at the same time.
  writeFileSync(`${entryPath}.${process.pid}.tmp`, `${JSON.stringify(entry, null, 2)}\n`);
  renameSync(`${entryPath}.${process.pid}.tmp`, entryPath);
  return 'updated';
}

function writeAtomically(path, content) {
  writeFileSync(`${path}.${process.pid}.tmp`, content);
  renameSync(`${path}.${process.pid}.tmp`, path);
}

async function main() {
  const toolchain = toolchainId();
  const tools = discover().filter((tool) => only.length === 0 || only.includes(tool.name));
  const unknown = only.filter((name) => !tools.some((tool) => tool.name === name));
  if (unknown.length > 0) throw new Error(`unknown tool(s): ${unknown.join(', ')}`);
  const started = performance.now();
  let built = 0;
  const differing = [];
  for (const tool of tools) {
    const inputHash = sha256(toolchain, tool.kind, readFileSync(tool.source), readFileSync(tool.wit));
    const out = join(tool.outDir, `${tool.name}.wasm`);
    const stamp = join(tool.outDir, `${tool.name}.inputs.sha256`);
    const t0 = performance.now();
    let line;
    let digest;
    if (!force && existsSync(out) && existsSync(stamp) && readFileSync(stamp, 'utf8') === inputHash) {
      digest = sha256(readFileSync(out));
      line = `skip   ${tool.name.padEnd(20)} unchanged        sha256 ${digest.slice(0, 12)}`;
    } else {
      const component = await build(tool);
      mkdirSync(tool.outDir, { recursive: true });
      writeAtomically(out, component);
      writeAtomically(stamp, inputHash);
      digest = sha256(component);
      built++;
      line = `build  ${tool.name.padEnd(20)} ${((performance.now() - t0) / 1000).toFixed(1).padStart(5)} s ${(component.length / 1024).toFixed(0).padStart(6)} KiB  sha256 ${digest.slice(0, 12)}`;
    }
    const registry = compareWithRegistry(tool.name, out, digest);
    if (registry === 'differs') differing.push(tool.name);
    say(`${line}${{ none: '', match: '  = registry', updated: '  registry updated', differs: '  != registry' }[registry]}`);
  }
  say(`${built} built, ${tools.length - built} up to date in ${((performance.now() - started) / 1000).toFixed(1)} s`);
  if (differing.length > 0) {
    console.error(
      `tools-src build: ${differing.join(', ')} built to a sha256 other than the one pinned in registry/tools (the installer will refuse them). ` +
        'If you changed their source, run `node tools-src/build.mjs --update-registry` and commit the entries; otherwise the toolchain differs from the one that built the pins (check `pnpm install --frozen-lockfile`).',
    );
    if (check) process.exit(1);
  }
}

main().catch((error) => {
  console.error(`tools-src build failed: ${error?.stack ?? error}`);
  process.exit(1);
});
