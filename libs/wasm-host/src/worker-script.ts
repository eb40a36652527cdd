import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

/**
 * URL of a compiled worker entry of this library (`<name>.js`): next to this module when running from
 * `dist/`, or in `dist/` when running from sources (tests), because worker threads load plain JavaScript.
 */
export function compiledWorkerScript(name: string): URL {
  const sibling = new URL(`./${name}.js`, import.meta.url);
  if (existsSync(fileURLToPath(sibling))) return sibling;
  return new URL(`../dist/${name}.js`, import.meta.url);
}
