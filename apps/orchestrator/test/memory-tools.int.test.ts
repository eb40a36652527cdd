import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openDatabase, type Database } from '@talon/persistence';
import { createTestDatabase, type TestDatabase } from '@talon/testing';
import type { Tool, ToolContext } from '@talon/tool-runtime';
import { createMemoryTools } from '../src/memory/memory-tools.js';

const context = {
  callId: 'c',
  signal: new AbortController().signal,
  grants: [],
  log: () => undefined,
} as ToolContext;

describe.each(['postgres', 'pglite'] as const)('memory tools on %s', (kind) => {
  let database: Database;
  let testDatabase: TestDatabase | undefined;
  let dataDir: string | undefined;
  let tools: Record<string, Tool>;
  const run = (name: string, params: Record<string, unknown>) =>
    tools[name]!.execute(params, context) as Promise<Record<string, unknown>>;

  beforeAll(async () => {
    if (kind === 'postgres') {
      testDatabase = await createTestDatabase();
      database = await openDatabase({ kind: 'postgres', url: testDatabase.url });
    } else {
      dataDir = await mkdtemp(join(tmpdir(), 'talon-memory-'));
      database = await openDatabase({ kind: 'pglite', dataDir });
    }
    tools = Object.fromEntries(
      createMemoryTools(database.prisma).map((tool) => [tool.definition.name, tool]),
    );
  }, 120_000);

  afterAll(async () => {
    await database?.close();
    await testDatabase?.drop();
    if (dataDir) await rm(dataDir, { recursive: true, force: true });
  });

  it('writes, reads, replaces and lists documents', async () => {
    expect(
      await run('memory_write', {
        path: '/notes/ward-round.md',
        content: 'Ward round at nine; check the infusion pumps.',
      }),
    ).toMatchObject({ path: 'notes/ward-round.md', created: true });
    expect(
      await run('memory_write', {
        path: 'notes/ward-round.md',
        content: 'Ward round at nine; check infusion pumps and chart vitals.',
      }),
    ).toMatchObject({ created: false });
    await run('memory_write', {
      path: 'projects/talon/plan.md',
      content: 'Ship the NATS transport, then the catalog.',
    });
    expect(await run('memory_read', { path: 'notes/ward-round.md' })).toMatchObject({
      content: 'Ward round at nine; check infusion pumps and chart vitals.',
    });
    expect(
      ((await run('memory_tree', {})).documents as Array<{ path: string }>).map((document) => document.path),
    ).toEqual(['notes/ward-round.md', 'projects/talon/plan.md']);
    expect((await run('memory_tree', { prefix: 'projects' })).documents as unknown[]).toHaveLength(1);
  });

  it('finds documents by full-text search, ranked, with a snippet', async () => {
    const found = (await run('memory_search', { query: 'infusion pumps' })).results as Array<{
      path: string;
      snippet: string;
    }>;
    expect(found.map((result) => result.path)).toEqual(['notes/ward-round.md']);
    expect(found[0]!.snippet).toContain('<b>infusion</b>');
    const byPath = (await run('memory_search', { query: 'talon' })).results as Array<{ path: string }>;
    expect(byPath.map((result) => result.path)).toEqual(['projects/talon/plan.md']);
    expect((await run('memory_search', { query: 'nothing-like-this' })).results).toEqual([]);
  });

  it('refuses bad paths and names missing documents', async () => {
    await expect(run('memory_write', { path: 'notes/../../etc', content: 'x' })).rejects.toMatchObject({
      code: 'SCHEMA_VIOLATION',
    });
    await expect(run('memory_read', { path: 'nope.md' })).rejects.toMatchObject({ code: 'NOT_FOUND' });
  });
});
