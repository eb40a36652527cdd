import { chmod, chown, mkdtemp, rm } from 'node:fs/promises';
import { resolveSandboxIdentity } from '@talon/sandbox';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  loadMcpServerRegistry,
  parseMcpServerConfig,
  standardConfigVariables,
  type McpServerDefinition,
} from '../../src/index.js';

/** The repository root (holds node_modules and registry/). */
export const REPO_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../../../..');
export const FIXTURES = join(REPO_ROOT, 'libs/mcp/test/fixtures');
export const EVERYTHING_BIN = join(
  REPO_ROOT,
  'node_modules/@modelcontextprotocol/server-everything/dist/index.js',
);

/** A temp workspace and data dir, removed by `cleanup`. */
export interface TestDirs {
  workspace: string;
  dataDir: string;
  cleanup(): Promise<void>;
}

export async function makeTestDirs(): Promise<TestDirs> {
  const base = await mkdtemp(join(tmpdir(), 'talon-mcp-'));
  const workspace = join(base, 'workspace');
  const dataDir = join(base, 'data');
  const { mkdir } = await import('node:fs/promises');
  await mkdir(workspace);
  await mkdir(dataDir);
  // As root the sandboxed servers run as an unprivileged user: let it reach and write these two.
  const identity = resolveSandboxIdentity();
  if (identity.dropFromRoot) {
    await chmod(base, 0o755);
    for (const dir of [workspace, dataDir]) await chown(dir, identity.uid, identity.gid);
  }
  return { workspace, dataDir, cleanup: () => rm(base, { recursive: true, force: true }) };
}

/** The real registry files with paths expanded for this checkout and the temp dirs. */
export async function registryDefinitions(dirs: TestDirs): Promise<McpServerDefinition[]> {
  return loadMcpServerRegistry(join(REPO_ROOT, 'registry/mcp-servers'), {
    variables: standardConfigVariables({ root: REPO_ROOT, workspace: dirs.workspace, dataDir: dirs.dataDir }),
  });
}

/** A stdio definition running a fixture script with this Node binary. */
export function fixtureServer(
  name: string,
  script: string,
  overrides: Record<string, unknown> = {},
): McpServerDefinition {
  return parseMcpServerConfig(
    {
      name,
      transport: { type: 'stdio', command: process.execPath, args: [join(FIXTURES, script)] },
      // The fixtures import the MCP SDK through libs/mcp/node_modules, which links into the root one.
      sandbox: { read_paths: [join(REPO_ROOT, 'libs/mcp'), join(REPO_ROOT, 'node_modules')] },
      ...overrides,
    },
    { source: `test fixture ${script}` },
  );
}

/** Polls `check` until it returns true or `timeoutMs` passes. */
export async function waitFor(
  check: () => boolean | Promise<boolean>,
  timeoutMs = 10_000,
  what = 'condition',
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (await check()) return;
    await new Promise((done) => setTimeout(done, 25));
  }
  throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
}

export { hostProcessesWith } from '@talon/testing';
