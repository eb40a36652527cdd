// Reproducible component builds: the same source and toolchain give the same bytes, equal to the sha256 pinned in
// registry/tools, and the snapshot step (deterministic-wizer) keeps a module's initialised state.
import { describe, expect, it } from '@jest/globals';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { REPO_ROOT } from '@talon/testing';

const REGISTRY_TOOLS = ['text-stats', 'weather-api', 'workspace-summary'];

/** Builds the named tools in a fresh Node process (as a fresh checkout would) and returns name → sha256. */
function buildInFreshProcess(names: string[]): Record<string, string> {
  const script = `
    import { createHash } from 'node:crypto';
    import { readFileSync } from 'node:fs';
    import { buildJsComponent } from './tools-src/component-build.mjs';
    const out = {};
    for (const name of ${JSON.stringify(names)}) {
      const component = await buildJsComponent(readFileSync(\`tools-src/\${name}/\${name}.js\`, 'utf8'));
      out[name] = createHash('sha256').update(component).digest('hex');
    }
    console.log(JSON.stringify(out));`;
  const stdout = execFileSync(process.execPath, ['--input-type=module', '-e', script], {
    cwd: REPO_ROOT,
    encoding: 'utf8',
    env: { ...process.env, TMPDIR: mkdtempSync(join(tmpdir(), 'talon-repro-')) },
  });
  return JSON.parse(stdout.trim().split('\n').at(-1)!) as Record<string, string>;
}

function pinnedSha256(name: string): string {
  const entry = JSON.parse(readFileSync(join(REPO_ROOT, 'registry/tools', `${name}.json`), 'utf8')) as {
    artifact: { sha256: string };
  };
  return entry.artifact.sha256;
}

describe('reproducible component builds', () => {
  // One build here is enough: the pins are the bytes of an earlier build, and
  // `pnpm build` (setup) builds the same tools again in a process of its own.
  it('builds every registry tool in a fresh process to the bytes of an earlier build, pinned in the registry', () => {
    const built = buildInFreshProcess(REGISTRY_TOOLS);
    for (const name of REGISTRY_TOOLS)
      expect({ name, sha256: built[name] }).toEqual({ name, sha256: pinnedSha256(name) });
  }, 300_000);

  it('snapshots a module initialised by its init function: globals, memory, exports and start', () => {
    // A reactor with a start function, a mutable global and memory written by the init function.
    const wat = `(module
      (import "wasi_snapshot_preview1" "random_get" (func $random (param i32 i32) (result i32)))
      (memory (export "memory") 1)
      (global $counter (mut i32) (i32.const 0))
      (global $big (mut i64) (i64.const 0))
      (func $start (global.set $counter (i32.add (global.get $counter) (i32.const 1))))
      (start $start)
      (func (export "_initialize") (global.set $big (i64.const -5)))
      (func (export "init")
        (drop (memory.grow (i32.const 2)))
        (i32.store (i32.const 70000) (i32.const 0x01020304))
        (drop (call $random (i32.const 100) (i32.const 8)))
        (global.set $counter (i32.add (global.get $counter) (i32.const 41))))
      (func (export "counter") (result i32) (global.get $counter))
      (func (export "big") (result i64) (global.get $big))
      (func (export "at") (param i32) (result i32) (i32.load (local.get 0))))`;
    const dir = mkdtempSync(join(tmpdir(), 'talon-wizer-test-'));
    try {
      const input = join(dir, 'in.wasm');
      const output = join(dir, 'out.wasm');
      const toWasm = `import { parse } from '@bytecodealliance/jco';
        import { writeFileSync } from 'node:fs';
        writeFileSync(${JSON.stringify(input)}, await parse(${JSON.stringify(wat)}));`;
      execFileSync(process.execPath, ['--input-type=module', '-e', toWasm], { cwd: REPO_ROOT });
      const wizer = join(REPO_ROOT, 'tools-src/deterministic-wizer');
      const run = () =>
        execFileSync(wizer, ['--allow-wasi', '--init-func', 'init', `-o=${output}`, input], {
          input: '',
          env: { TALON_BUILD_NODE: process.execPath },
        });
      run();
      const bytes = readFileSync(output);
      run();
      expect(readFileSync(output).equals(bytes)).toBe(true);

      const module = new WebAssembly.Module(bytes);
      const exported = WebAssembly.Module.exports(module).map((e) => e.name);
      expect(exported).not.toContain('init');
      expect(exported).not.toContain('_initialize');
      const instance = new WebAssembly.Instance(module, {
        wasi_snapshot_preview1: { random_get: () => 0 },
      });
      const exports = instance.exports as {
        counter(): number;
        big(): bigint;
        at(address: number): number;
        memory: WebAssembly.Memory;
      };
      // The start function ran once, before init; it is not run again.
      expect(exports.counter()).toBe(42);
      expect(exports.big()).toBe(-5n);
      expect(exports.at(70000)).toBe(0x01020304);
      expect(exports.memory.buffer.byteLength).toBe(3 * 65536);
      // The deterministic random bytes are part of the snapshot.
      expect(exports.at(100)).not.toBe(0);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 60_000);

  it('writes nothing into tracked files: build.mjs checks the registry pins instead of rewriting them', () => {
    const before = REGISTRY_TOOLS.map((name) =>
      readFileSync(join(REPO_ROOT, 'registry/tools', `${name}.json`)),
    );
    execFileSync(process.execPath, [join(REPO_ROOT, 'tools-src/build.mjs'), '--quiet', '--check'], {
      cwd: REPO_ROOT,
    });
    REGISTRY_TOOLS.forEach((name, i) =>
      expect(readFileSync(join(REPO_ROOT, 'registry/tools', `${name}.json`)).equals(before[i]!)).toBe(true),
    );
  }, 300_000);
});
