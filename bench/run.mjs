// `pnpm bench <name>` runs bench/<name>.mjs. Every benchmark compares against a baseline measured in
// the same run and prints, as its last line, one JSON object with its figures and ratios.
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const name = process.argv[2];
const available = readdirSync(here)
  .filter((file) => file.endsWith('.mjs') && file !== 'run.mjs')
  .map((file) => file.slice(0, -4));
if (!name || !existsSync(join(here, `${name}.mjs`))) {
  console.error(`Usage: pnpm bench <name>\nAvailable: ${available.join(', ')}`);
  process.exit(2);
}
const result = spawnSync(process.execPath, [join(here, `${name}.mjs`), ...process.argv.slice(3)], {
  stdio: 'inherit',
});
process.exit(result.status ?? 1);
