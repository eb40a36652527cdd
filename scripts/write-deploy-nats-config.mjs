// Writes deploy/nats-server.conf, the NATS config docker-compose mounts, from the one permission table in
// libs/contracts. Passwords are references to environment variables that compose passes from `.env`.
// A unit test (test/unit/deployment.test.ts) fails when the committed file differs from this output.
import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { deployNatsConfig } from '../libs/auth/dist/index.js';

const target = fileURLToPath(new URL('../deploy/nats-server.conf', import.meta.url));
writeFileSync(target, deployNatsConfig());
console.log(`wrote ${target}`);
