// Writes docs/openapi.json, the OpenAPI 3.1 document of the HTTP API, from the method table and schemas
// in libs/contracts (the orchestrator serves the same document at GET /v1/openapi.json). Run after a build;
// the root `build` runs it. A unit test (libs/contracts/src/v1/openapi-document.test.ts) fails when the
// committed file differs from this output.
import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { buildOpenApiDocument } from '../libs/contracts/dist/index.js';

const target = fileURLToPath(new URL('../docs/openapi.json', import.meta.url));
writeFileSync(target, `${JSON.stringify(buildOpenApiDocument(), null, 2)}\n`);
console.log(`wrote ${target}`);
