// Regenerates the console screenshots in docs/console/ by running the browser test against a real stack
// (needs a build, PostgreSQL, nats-server and /usr/bin/chromium, as the test does).
import { spawnSync } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const result = spawnSync(
  process.execPath,
  ['--experimental-vm-modules', 'node_modules/jest/bin/jest.js', 'apps/console/test/console.int.test.ts'],
  { cwd: root, stdio: 'inherit', env: { ...process.env, TALON_CONSOLE_SCREENSHOTS: 'docs' } },
);
process.exit(result.status ?? 1);
