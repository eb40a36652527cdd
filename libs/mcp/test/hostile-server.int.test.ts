import { afterEach, describe, expect, it } from '@jest/globals';
import { TalonError } from '@talon/errors';
import { ToolRegistry, type Tool } from '@talon/tool-runtime';
import { McpManager, type McpManagerOptions, type McpServerDefinition } from '../src/index.js';
import { fixtureServer, hostProcessesWith, waitFor } from './support/mcp-test-servers.js';

const PLANTED_KEY = 'sk-proj-T4lonPlantedKey0123456789abcdefghijklmnopqrstuvwxyz';
const managers: McpManager[] = [];

function managerFor(servers: McpServerDefinition[], options: Partial<McpManagerOptions> = {}): McpManager {
  const manager = new McpManager({ servers, ...options });
  managers.push(manager);
  return manager;
}
const hostile = (overrides: Record<string, unknown> = {}, name = 'web') =>
  fixtureServer(name, 'hostile-server.mjs', overrides);
const builtin = (name: string): Tool => ({
  definition: {
    name,
    description: 'built-in',
    parameters: { type: 'object' },
    effects: [],
    approval: 'never',
    timeoutMs: 1000,
    domain: 'orchestrator',
    source: 'builtin',
    sensitiveParams: [],
    idempotent: true,
  },
  execute: async () => 'built-in',
});

afterEach(async () => {
  await Promise.all(managers.splice(0).map((manager) => manager.close()));
});

describe('a hostile stdio server', () => {
  it('never shadows a protected built-in: names are prefixed and a colliding registration fails typed', async () => {
    const manager = managerFor([hostile()]);
    await manager.start('web');
    const names = manager.tools().map((tool) => tool.definition.name);
    expect(names).toEqual(expect.arrayContaining(['web_echo', 'web_shell', 'web_fetch']));
    expect(names).not.toContain('echo');
    expect(names).not.toContain('shell');
    const registry = new ToolRegistry();
    for (const name of ['echo', 'shell', 'web_fetch']) registry.register(builtin(name));
    const refused: string[] = [];
    for (const tool of manager.tools()) {
      try {
        registry.register(tool);
      } catch (error) {
        expect(TalonError.isInstance(error) && error.code).toBe('NAME_CONFLICT');
        refused.push(tool.definition.name);
      }
    }
    expect(refused).toEqual(['web_fetch']);
    expect(await registry.get('echo')?.execute({}, undefined as never)).toBe('built-in');
  });

  it('lists tools whose input or output schema is not JSON Schema as unusable and refuses to call it', async () => {
    const manager = managerFor([hostile()]);
    await manager.start('web');
    expect(manager.tools().map((tool) => tool.definition.displayName)).not.toContain('web.bad_schema');
    const listing = manager.list()[0];
    expect(listing?.unusableTools).toHaveLength(2);
    expect(listing?.unusableTools).toEqual(
      expect.arrayContaining([
        expect.objectContaining({
          displayName: 'web.bad_output',
          reason: expect.stringMatching(/^output schema: .*not valid JSON Schema/),
        }),
        expect.objectContaining({
          displayName: 'web.bad_schema',
          reason: expect.stringMatching(/^input schema: .*not valid JSON Schema/),
        }),
      ]),
    );
    await expect(manager.call('web.bad_schema', { path: 'x' })).rejects.toMatchObject({
      code: 'TOOL_FAILED',
      message: expect.stringContaining('cannot be used'),
    });
    expect(manager.list()[0]?.state).toBe('running');
  });

  it('passes output with a planted key through unchanged so the pipeline leak detector sees it', async () => {
    const manager = managerFor([hostile()]);
    const output = await manager.call('web.leak', {});
    expect(output.text).toContain(PLANTED_KEY);
  });

  it('times out a tool that never answers with TIMEOUT and keeps the connection usable', async () => {
    const manager = managerFor([hostile({ call_timeout_ms: 300 })]);
    await manager.start('web');
    const pid = manager.list()[0]?.pid;
    const started = Date.now();
    await expect(manager.call('web.hang', {})).rejects.toMatchObject({ code: 'TIMEOUT', retryable: true });
    expect(Date.now() - started).toBeLessThan(3000);
    expect((await manager.call('web.echo', { message: 'still here' })).text).toContain('still here');
    expect(manager.list()[0]).toMatchObject({ state: 'running', pid, restarts: 0 });
  });

  it('turns isError results into TOOL_FAILED with the text, and summarises a 1 MB image without the data', async () => {
    const manager = managerFor([hostile()]);
    await expect(manager.call('web.fail', {})).rejects.toMatchObject({
      code: 'TOOL_FAILED',
      message: expect.stringContaining('failed on purpose'),
    });
    const image = await manager.call('web.big_image', {});
    expect(image.content[0]).toEqual({ type: 'image', mimeType: 'image/png', dataBytes: 1024 * 1024 });
  });

  it('validates input before the call and maps approvals: destructiveHint raises, readOnlyHint never lowers', async () => {
    const manager = managerFor([
      hostile({ approval: 'always' }, 'strict'),
      hostile({ approval: 'never' }, 'lax'),
    ]);
    await manager.discover();
    const approval = (name: string) =>
      manager.tools().find((tool) => tool.definition.displayName === name)?.definition.approval;
    expect(approval('strict.peek')).toBe('always');
    expect(approval('lax.peek')).toBe('never');
    expect(approval('lax.wipe')).toBe('always');
    expect(approval('lax.echo')).toBe('never');
    await expect(manager.call('lax.echo', { message: 42 })).rejects.toMatchObject({
      code: 'SCHEMA_VIOLATION',
    });
    await expect(manager.call('lax.echo', {})).rejects.toMatchObject({ code: 'SCHEMA_VIOLATION' });
  });

  it('re-lists tools on notifications/tools/list_changed', async () => {
    const changes: string[][] = [];
    const manager = managerFor([hostile()], {
      onToolsChanged: (tools) => changes.push(tools.map((tool) => tool.definition.name)),
    });
    await manager.start('web');
    expect(manager.tools().map((tool) => tool.definition.name)).not.toContain('web_extra');
    await manager.call('web.add_tool', {});
    await waitFor(
      () => manager.tools().some((tool) => tool.definition.name === 'web_extra'),
      5000,
      'web_extra listed',
    );
    expect((await manager.call('web.extra', {})).text).toBe('extra tool answered');
    expect(changes.length).toBeGreaterThanOrEqual(2);
  });

  it('marks a crashed server down with its last stderr lines, then restarts it with backoff', async () => {
    const statuses: string[] = [];
    const manager = managerFor([hostile({ restart: { initial_delay_ms: 200 } })], {
      onStatusChanged: (status) => statuses.push(status.state),
    });
    await manager.start('web');
    const firstPid = manager.list()[0]?.pid;
    const error = await manager.call('web.crash', {}).catch((caught: unknown) => caught);
    expect(TalonError.isInstance(error) && error.code).toBe('UNAVAILABLE');
    const down = manager.list()[0];
    expect(down?.state).toBe('down');
    expect(down?.lastError).toContain('closed unexpectedly');
    expect(down?.lastStderr.join('\n')).toContain('fatal: hostile crash requested');
    expect(down?.nextRestartAt).toEqual(expect.any(String));
    await waitFor(() => manager.list()[0]?.state === 'running', 10_000, 'restart');
    const up = manager.list()[0];
    expect(up?.restarts).toBe(1);
    expect(up?.pid).not.toBe(firstPid);
    expect(statuses).toEqual(expect.arrayContaining(['starting', 'running', 'down']));
    expect((await manager.call('web.echo', { message: 'after restart' })).text).toContain('after restart');
  });

  it('restarts a server killed from outside, and stops restarting past the limit', async () => {
    const manager = managerFor([hostile({ restart: { max_restarts: 1, initial_delay_ms: 50 } })]);
    await manager.start('web');
    process.kill(manager.list()[0]?.pid as number, 'SIGKILL');
    await waitFor(
      () => manager.list()[0]?.restarts === 1 && manager.list()[0]?.state === 'running',
      10_000,
      'first restart',
    );
    process.kill(manager.list()[0]?.pid as number, 'SIGKILL');
    await waitFor(
      () => manager.list()[0]?.lastError?.includes('restart limit reached') === true,
      10_000,
      'restart limit',
    );
    await new Promise((done) => setTimeout(done, 300));
    expect(manager.list()[0]).toMatchObject({ state: 'down', restarts: 1 });
    // Starting by hand resets the budget.
    await manager.start('web');
    expect(manager.list()[0]?.state).toBe('running');
  });

  it('restarts a server that stops answering pings', async () => {
    const manager = managerFor([hostile({ health_interval_ms: 200, restart: { initial_delay_ms: 50 } })]);
    await manager.start('web');
    const pid = manager.list()[0]?.pid as number;
    // The listed pid is bubblewrap's; freeze the server itself, found on the host by its script.
    const [server] = hostProcessesWith('hostile-server.mjs', { under: pid });
    expect(server).toBeGreaterThan(0);
    process.kill(server, 'SIGSTOP');
    try {
      await waitFor(
        () => (manager.list()[0]?.lastError ?? '').includes('health check failed'),
        10_000,
        'failed health check',
      );
      await waitFor(
        () =>
          manager.list()[0]?.state === 'running' &&
          manager.list()[0]?.pid !== undefined &&
          manager.list()[0]?.pid !== pid,
        15_000,
        'restart after hang',
      );
    } finally {
      try {
        process.kill(server, 'SIGKILL');
      } catch {
        // already gone
      }
    }
    expect(manager.list()[0]?.restarts).toBeGreaterThanOrEqual(1);
  }, 30_000);

  it('stops an idle stdio server, keeps its tools listed and starts it again on the next call', async () => {
    const manager = managerFor([hostile({ idle_stop_ms: 300 })], { idleSweepMs: 50 });
    await manager.call('web.echo', { message: 'first' });
    await waitFor(() => manager.list()[0]?.state === 'stopped', 5000, 'idle stop');
    expect(manager.list()[0]?.pid).toBeUndefined();
    expect(manager.tools().length).toBeGreaterThan(5);
    expect((await manager.call('web.echo', { message: 'second' })).text).toContain('second');
    expect(manager.list()[0]?.state).toBe('running');
  });

  it('caps running stdio servers by stopping the least recently used idle one', async () => {
    const manager = managerFor([hostile({}, 'one'), hostile({}, 'two'), hostile({}, 'three')], {
      maxRunningStdio: 2,
    });
    await manager.call('one.echo', { message: '1' });
    await manager.call('two.echo', { message: '2' });
    await manager.call('one.echo', { message: '1 again' });
    await manager.call('three.echo', { message: '3' });
    const state = Object.fromEntries(manager.list().map((server) => [server.name, server.state]));
    expect(state).toEqual({ one: 'running', two: 'stopped', three: 'running' });
  });

  it('refuses to start past the cap when every running server is busy', async () => {
    const manager = managerFor([hostile({ call_timeout_ms: 2000 }, 'one'), hostile({}, 'two')], {
      maxRunningStdio: 1,
    });
    await manager.start('one');
    const busy = manager.call('one.hang', {}).catch((error: unknown) => error);
    await new Promise((done) => setTimeout(done, 50));
    await expect(manager.start('two')).rejects.toMatchObject({ code: 'UNAVAILABLE', retryable: true });
    expect(await busy).toMatchObject({ code: 'TIMEOUT' });
  });

  it('gives up on a server that never answers initialize and does not leave the child running', async () => {
    // Long enough for the child to have started and said its pid on a loaded machine (a Node start can take
    // over 300 ms there, and then the error had no stderr to quote).
    const manager = managerFor([fixtureServer('silent', 'silent-server.mjs', { connect_timeout_ms: 2500 })]);
    const started = Date.now();
    const error = await manager.start('silent').catch((caught: unknown) => caught);
    expect(error).toMatchObject({
      code: 'UNAVAILABLE',
      message: expect.stringContaining('silent server pid='),
    });
    expect(Date.now() - started).toBeLessThan(8000);
    const pid = Number(/pid=(\d+)/.exec(manager.list()[0]?.lastStderr.join('\n') ?? '')?.[1]);
    expect(pid).toBeGreaterThan(0);
    await waitFor(
      () => hostProcessesWith('silent-server.mjs').length === 0,
      10_000,
      'the silent child to exit',
    );
  }, 20_000);

  it('reports a command that cannot be spawned as UNAVAILABLE with a clear message', async () => {
    const broken = fixtureServer('broken', 'hostile-server.mjs', {
      transport: { type: 'stdio', command: '/nonexistent/talon-mcp-binary' },
    });
    const manager = managerFor([broken]);
    await expect(manager.start('broken')).rejects.toMatchObject({
      code: 'UNAVAILABLE',
      message: expect.stringContaining('could not be started'),
    });
    // The sandbox refuses to bind a command that does not exist, before anything runs.
    expect(manager.list()[0]).toMatchObject({
      state: 'down',
      lastError: expect.stringContaining('No such file or directory'),
    });
  });
});
