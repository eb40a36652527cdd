// Creates `.env` for docker compose with fresh random secrets (mode 0600), unless it exists:
// the NATS password of every Talon user, the secrets key, the first operator token, the
// PostgreSQL password and the Prometheus scrape token. Run it once: `node scripts/compose-env.mjs`.
import { randomBytes } from 'node:crypto';
import { appendFileSync, existsSync, readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const target = fileURLToPath(new URL('../.env', import.meta.url));
const secret = (bytes = 24) => randomBytes(bytes).toString('base64url');
if (existsSync(target)) {
  // A .env from before the metrics token gets one added; nothing else changes.
  if (!/^TALON_METRICS_TOKEN=/m.test(readFileSync(target, 'utf8'))) {
    appendFileSync(target, `TALON_METRICS_TOKEN=${secret(32)}\n`);
    console.log(`added TALON_METRICS_TOKEN to ${target}`);
  }
  console.log(
    `${target} exists; keeping it (delete it to start over: stored secrets need the same TALON_SECRETS_KEY).`,
  );
  process.exit(0);
}
const users = ['orchestrator', 'skill-service', 'tool-worker', 'wasm-runner', 'api'];
const lines = [
  '# Secrets of this Talon deployment. Keep this file private; back up TALON_SECRETS_KEY.',
  ...users.map((user) => `TALON_NATS_PASSWORD_${user.toUpperCase().replace(/-/g, '_')}=${secret()}`),
  `TALON_SECRETS_KEY=${randomBytes(32).toString('base64')}`,
  `TALON_BOOTSTRAP_TOKEN=talon_${secret(32)}`,
  `POSTGRES_PASSWORD=${secret()}`,
  `TALON_METRICS_TOKEN=${secret(32)}`,
];
writeFileSync(target, lines.join('\n') + '\n', { mode: 0o600 });
console.log(`wrote ${target}; the operator token is TALON_BOOTSTRAP_TOKEN in it.`);
