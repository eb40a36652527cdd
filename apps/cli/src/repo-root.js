import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
/** The checkout the CLI runs from (apps/cli/dist → repo root). */
export const REPO_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../../..');
