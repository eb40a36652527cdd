import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { TalonError } from '@talon/errors';
import { McpManager, type McpToolOutput } from '../src/index.js';
import { makeTestDirs, registryDefinitions, type TestDirs } from './support/mcp-test-servers.js';

const context = () => ({
  callId: 't',
  signal: new AbortController().signal,
  grants: [],
  log: () => undefined,
});

describe('registry servers over stdio (server-everything, server-filesystem, server-memory)', () => {
  let dirs: TestDirs;
  let manager: McpManager;

  beforeAll(async () => {
    dirs = await makeTestDirs();
    manager = new McpManager({ servers: await registryDefinitions(dirs) });
  });
  afterAll(async () => {
    await manager.close();
    await dirs.cleanup();
  });

  it('starts everything on first use, lists its tools and calls echo', async () => {
    expect(manager.list().find((server) => server.name === 'everything')?.state).toBe('stopped');
    const output = await manager.call('everything.echo', { message: 'hello talon' });
    expect(output.text).toContain('hello talon');
    const status = manager.list().find((server) => server.name === 'everything');
    expect(status).toMatchObject({ state: 'running', transport: 'stdio' });
    expect(status?.toolCount).toBeGreaterThan(5);
    expect(status?.pid).toEqual(expect.any(Number));
    const echo = manager.tools().find((tool) => tool.definition.displayName === 'everything.echo');
    expect(echo?.definition).toMatchObject({
      name: 'everything_echo',
      source: 'mcp',
      domain: 'container',
      effects: ['network'],
    });
    // server-everything marks echo readOnlyHint: true; that must not lower the configured approval.
    expect(echo?.definition.approval).toBe('unless_auto_approved');
  });

  it('sanitises tool names with dashes kept and every name matches the LLM pattern', () => {
    for (const tool of manager.tools()) expect(tool.definition.name).toMatch(/^[a-zA-Z0-9_-]{1,64}$/);
    expect(manager.tools().map((tool) => tool.definition.name)).toContain('everything_get-sum');
  });

  it('maps image content to a size summary with base64 and validates input before calling', async () => {
    const image = await manager.call('everything.get-tiny-image', {});
    const item = image.content.find((entry) => entry.type === 'image');
    expect(item).toMatchObject({
      type: 'image',
      mimeType: 'image/png',
      dataBytes: expect.any(Number),
      data: expect.any(String),
    });
    await expect(manager.call('everything.get-sum', { a: 'one', b: 2 })).rejects.toMatchObject({
      code: 'SCHEMA_VIOLATION',
    });
    const sum = await manager.call('everything.get-sum', { a: 2, b: 40 });
    expect(sum.text).toContain('42');
  });

  it('maps resource links', async () => {
    const links = await manager.call('everything.get-resource-links', { count: 2 });
    expect(links.content.filter((entry) => entry.type === 'resource_link')).toHaveLength(2);
    expect(links.content.find((entry) => entry.type === 'resource_link')).toMatchObject({
      uri: expect.stringMatching(/^demo:\/\//),
    });
  });

  it('lists and reads resources and lists and renders prompts of server-everything, typed', async () => {
    const page = await manager.listResources('everything');
    expect(page.resources.length).toBeGreaterThan(0);
    const text = page.resources.find((resource) => resource.mimeType?.startsWith('text/'))!;
    const read = await manager.readResource('everything', text.uri);
    expect(read.contents[0]).toMatchObject({ type: 'resource', uri: text.uri, text: expect.any(String) });
    const prompts = await manager.listPrompts('everything');
    expect(prompts.prompts.map((prompt) => prompt.name)).toEqual(
      expect.arrayContaining(['simple-prompt', 'args-prompt']),
    );
    const args = prompts.prompts.find((prompt) => prompt.name === 'args-prompt')!;
    expect(args.arguments.some((argument) => argument.required)).toBe(true);
    const rendered = await manager.getPrompt('everything', 'args-prompt', { city: 'Lisbon', state: 'PT' });
    expect(rendered.messages[0]).toMatchObject({
      role: 'user',
      content: { type: 'text', text: expect.stringContaining('Lisbon') },
    });
    await expect(manager.readResource('everything', 'demo://no/such/thing')).rejects.toBeInstanceOf(
      TalonError,
    );
    expect(manager.list().find((server) => server.name === 'everything')?.resourceListChanges).toBe(0);
  });

  it('answers resources and prompts of server-filesystem, which offers neither, with a typed error', async () => {
    await expect(manager.listResources('filesystem')).rejects.toMatchObject({
      code: 'NOT_FOUND',
      details: { capability: 'resources' },
    });
    await expect(manager.listPrompts('filesystem')).rejects.toMatchObject({
      code: 'NOT_FOUND',
      details: { capability: 'prompts' },
    });
  });

  it('reports an unknown tool and an unknown server with typed errors', async () => {
    await expect(manager.call('everything.no-such-tool', {})).rejects.toMatchObject({ code: 'UNKNOWN_TOOL' });
    await expect(manager.call('nowhere.echo', {})).rejects.toMatchObject({ code: 'NOT_FOUND' });
    // A raw call to a tool the server does not know comes back as a failed call, not a crash.
    const raw = await manager.callTool('everything', 'no-such-tool', {}).then(
      (result) => manager.mapResult(result),
      (error: unknown) => error,
    );
    if (TalonError.isInstance(raw)) expect(raw.code).toBe('TOOL_FAILED');
    else expect((raw as McpToolOutput).isError).toBe(true);
  });

  it('reads and writes files in the workspace with server-filesystem and refuses paths outside it', async () => {
    await writeFile(join(dirs.workspace, 'note.txt'), 'filesystem via mcp\n');
    const read = await manager.call('filesystem.read_text_file', { path: join(dirs.workspace, 'note.txt') });
    expect(read.text).toContain('filesystem via mcp');
    await manager.call('filesystem.write_file', {
      path: join(dirs.workspace, 'out.txt'),
      content: 'written by talon',
    });
    expect(await readFile(join(dirs.workspace, 'out.txt'), 'utf8')).toBe('written by talon');
    await expect(manager.call('filesystem.read_text_file', { path: '/etc/passwd' })).rejects.toMatchObject({
      code: 'TOOL_FAILED',
    });
    const fsTool = manager.tools().find((tool) => tool.definition.displayName === 'filesystem.write_file');
    expect(fsTool?.definition.effects).toEqual(['read_filesystem', 'write_filesystem']);
  });

  it('keeps a knowledge graph with server-memory in the data dir', async () => {
    await manager.call('memory.create_entities', {
      entities: [{ name: 'Talon', entityType: 'project', observations: ['runs MCP servers'] }],
    });
    const found = await manager.call('memory.search_nodes', { query: 'Talon' });
    expect(found.text).toContain('runs MCP servers');
    expect(await readFile(join(dirs.dataDir, 'memory', 'mcp-memory.jsonl'), 'utf8')).toContain('Talon');
    await expect(manager.call('memory.create_entities', { entities: 'not a list' })).rejects.toMatchObject({
      code: 'SCHEMA_VIOLATION',
    });
  });

  it('offers remembered tools after a restart without starting anything, and starts on the first call', async () => {
    const snapshot = manager.toolSnapshot();
    expect(Object.keys(snapshot).sort()).toEqual(['everything', 'filesystem', 'memory']);
    const restarted = new McpManager({ servers: await registryDefinitions(dirs), knownTools: snapshot });
    try {
      expect(restarted.tools().map((tool) => tool.definition.name)).toEqual(
        expect.arrayContaining(['everything_echo', 'filesystem_read_text_file', 'memory_search_nodes']),
      );
      expect(restarted.list().every((server) => server.state === 'stopped')).toBe(true);
      expect((await restarted.call('everything.echo', { message: 'cold' })).text).toContain('cold');
      expect(restarted.list().find((server) => server.name === 'everything')?.state).toBe('running');
      expect(restarted.list().find((server) => server.name === 'memory')?.state).toBe('stopped');
    } finally {
      await restarted.close();
    }
  });

  it('executes adapted tools through the Tool interface', async () => {
    const echo = manager.tools().find((tool) => tool.definition.name === 'everything_echo');
    const output = (await echo?.execute({ message: 'via Tool' }, context())) as McpToolOutput;
    expect(output.text).toContain('via Tool');
  });
});
