import { readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';

/** What `scripts/bundle-services.mjs` writes beside a bundle: each workspace file as `[path, mtimeMs, size]`. */
interface BundleInputs {
  files: Array<[string, number, number]>;
}

/**
 * The file to start a service from: its bundle (`apps/<name>/dist/bundle/main.mjs`, which starts about a
 * second sooner) when every workspace file it was made from is as it was then, else the compiled
 * `apps/<name>/dist/main.js`, which is always current after `tsc -b`. A bundle goes stale when code changes
 * are compiled without `pnpm build`; starting the compiled entry then keeps the change.
 */
export function serviceEntry(repoRoot: string, name: string): string {
  const bundleDir = join(repoRoot, 'apps', name, 'dist', 'bundle');
  const compiled = join(repoRoot, 'apps', name, 'dist', 'main.js');
  let inputs: BundleInputs;
  try {
    inputs = JSON.parse(readFileSync(join(bundleDir, 'inputs.json'), 'utf8')) as BundleInputs;
  } catch {
    return compiled;
  }
  if (!Array.isArray(inputs?.files)) return compiled;
  for (const [file, mtimeMs, size] of inputs.files) {
    const stat = statSync(join(repoRoot, file), { throwIfNoEntry: false });
    if (!stat || stat.mtimeMs !== mtimeMs || stat.size !== size) return compiled;
  }
  return join(bundleDir, 'main.mjs');
}
