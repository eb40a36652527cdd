#!/usr/bin/env node
// Generates the Prisma client into libs/persistence/src/generated/prisma (gitignored) before `tsc -b`.
// Offline-safe: every prisma CLI command tries to download a native schema engine; pointing
// PRISMA_SCHEMA_ENGINE_BINARY at any existing file stops that, and `generate` never runs the engine.
import { spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const libRoot = join(dirname(fileURLToPath(import.meta.url)), '..');
const schema = join(libRoot, 'prisma', 'schema.prisma');
const require = createRequire(join(libRoot, 'package.json'));
const prismaCli = join(dirname(require.resolve('prisma/package.json')), 'build', 'index.js');

const env = {
  ...process.env,
  PRISMA_SCHEMA_ENGINE_BINARY: process.env.PRISMA_SCHEMA_ENGINE_BINARY ?? process.execPath,
  CHECKPOINT_DISABLE: '1',
  PRISMA_HIDE_UPDATE_MESSAGE: '1',
};
const result = spawnSync(process.execPath, [prismaCli, 'generate', '--schema', schema], {
  cwd: libRoot,
  env,
  stdio: 'inherit',
});
if (result.error) throw result.error;
process.exit(result.status ?? 1);
