// Creates `.env` for docker compose with fresh random secrets (mode 0600), unless it exists:
// the NATS password of every Talon user, the secrets key, the first operator token and the
// PostgreSQL password. Run it once: `node scripts/compose-env.mjs`.
import { randomBytes } from 'node:crypto';
import { existsSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const target = fileURLToPath(new URL('../.env', import.meta.url));
if (existsSync(target)) {
  console.log(
    `${target} exists; keeping it (delete it to start over: stored secrets need the same TALON_SECRETS_KEY).`,
  );
  process.exit(0);
}
const secret = (bytes = 24) => randomBytes(bytes).toString('base64url');
const users = ['orchestrator', 'skill-service', 'tool-worker', 'wasm-runner', 'api'];
const lines = [
  '# Secrets of this Talon deployment. Keep this file private; back up TALON_SECRETS_KEY.',
  ...users.map((user) => `TALON_NATS_PASSWORD_${user.toUpperCase().replace(/-/g, '_')}=${secret()}`),
  `TALON_SECRETS_KEY=${randomBytes(32).toString('base64')}`,
  `TALON_BOOTSTRAP_TOKEN=talon_${secret(32)}`,
  `POSTGRES_PASSWORD=${secret()}`,
];
writeFileSync(target, lines.join('\n') + '\n', { mode: 0o600 });
console.log(`wrote ${target}; the operator token is TALON_BOOTSTRAP_TOKEN in it.`);
