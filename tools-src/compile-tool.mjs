#!/usr/bin/env node
// Compiles one generated tool for the tool builder: JavaScript source on stdin, the component written to the path
// given as the only argument. The same reproducible build as tools-src (component-build.mjs). Errors go to stderr
// and the exit code is 1. The builder runs this in its own process group and kills it at its deadline.
//
// Usage: node tools-src/compile-tool.mjs OUT.wasm < source.js   (TALON_WIZER_MAX_MEMORY_MB caps initialisation)
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildJsComponent } from './component-build.mjs';

/** A syntax error with its line and column (componentize-js only counts them), or undefined. */
function syntaxError(source) {
  const dir = mkdtempSync(join(tmpdir(), 'talon-check-'));
  try {
    writeFileSync(join(dir, 'source.mjs'), source);
    const check = spawnSync(process.execPath, ['--check', join(dir, 'source.mjs')], { encoding: 'utf8' });
    return check.status === 0 ? undefined : check.stderr.split(dir).join('').trim();
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

const out = process.argv[2];
if (!out) {
  console.error('usage: node tools-src/compile-tool.mjs OUT.wasm < source.js');
  process.exit(2);
}
try {
  const source = readFileSync(0, 'utf8');
  const syntax = syntaxError(source);
  if (syntax) throw new Error(`syntax error: ${syntax}`);
  const maxMemoryMb = Number(process.env.TALON_WIZER_MAX_MEMORY_MB) || undefined;
  writeFileSync(out, await buildJsComponent(source, { maxMemoryMb }));
} catch (error) {
  console.error(String(error?.message ?? error));
  process.exit(1);
}
