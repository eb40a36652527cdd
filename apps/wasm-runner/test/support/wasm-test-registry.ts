import { createHash } from 'node:crypto';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { REPO_ROOT } from '@talon/testing';

/** Path of a component built by `tools-src/build.mjs`: a JavaScript tool or a WAT fixture. */
export function builtComponent(name: string, kind: 'js' | 'wat' = 'js'): string {
  return join(
    REPO_ROOT,
    kind === 'js' ? `tools-src/${name}/build/${name}.wasm` : `tools-src/wat/build/${name}.wasm`,
  );
}

/** sha256 of a file, hex. */
export async function sha256Of(path: string): Promise<string> {
  return createHash('sha256')
    .update(await readFile(path))
    .digest('hex');
}

/**
 * A copy of a component with one extra custom section: the same code under a different sha256, so a test
 * can publish a "new version" of a tool.
 */
export async function variantOf(source: string, target: string, label: string): Promise<string> {
  const bytes = await readFile(source);
  const name = Buffer.from(label);
  const payload = Buffer.concat([Buffer.from([name.length]), name, Buffer.from('talon-test')]);
  if (payload.length > 127) throw new Error('label too long for a one-byte section size');
  await writeFile(target, Buffer.concat([bytes, Buffer.from([0, payload.length]), payload]));
  return target;
}

/** Fields of a registry entry a test sets; the rest get plain defaults. */
export interface TestEntry {
  name: string;
  artifact: string;
  sha256: string;
  capabilities: Record<string, unknown> | string;
  version?: string;
  wit_version?: string;
}

/** Writes `<registryDir>/tools/<name>.json` (creating the folder). */
export async function writeRegistryEntry(registryDir: string, entry: TestEntry): Promise<void> {
  await mkdir(join(registryDir, 'tools'), { recursive: true });
  const file = {
    name: entry.name,
    display_name: `Test ${entry.name}`,
    version: entry.version ?? '0.1.0',
    wit_version: entry.wit_version ?? '0.1.0',
    description: `Integration-test entry ${entry.name}.`,
    keywords: ['test', entry.name],
    source: 'tools-src',
    artifact: { url: entry.artifact, sha256: entry.sha256 },
    capabilities: entry.capabilities,
    auth: { required: false, secrets: [], summary: 'test entry' },
    tags: ['test'],
  };
  await writeFile(join(registryDir, 'tools', `${entry.name}.json`), JSON.stringify(file, null, 2));
}
