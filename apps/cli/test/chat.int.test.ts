import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { spawnSync } from 'node:child_process';
import pty from '@lydell/node-pty';
import {
  connectTalonApi,
  createTestDatabase,
  findFreePort,
  REPO_ROOT,
  startNatsTestServer,
  startServiceProcess,
  waitUntil,
  type NatsTestServer,
  type ServiceProcess,
  type TestDatabase,
} from '@talon/testing';

// ANSI colour and cursor sequences removed, so assertions read what a person sees.
const ESCAPE = String.fromCharCode(27);
const plain = (text: string) =>
  text
    .split(ESCAPE)
    .map((part, index) => (index === 0 ? part : part.replace(/^\[[0-9;]*[A-Za-z]/, '')))
    .join('')
    .replace(/\r/g, '');

const SCRIPT = {
  model: 'scripted-chat-demo',
  steps: [
    {
      name: 'asks to write the note',
      expect: { lastUserMessageContains: 'note' },
      reply: {
        text: 'Writing the note now.',
        toolCalls: [
          { id: 'call_write_1', name: 'write_file', arguments: { path: 'note.md', content: 'from the pty' } },
        ],
      },
    },
    {
      name: 'reports the write',
      expect: { toolResults: [{ callId: 'call_write_1', contains: 'note.md' }] },
      reply: { text: 'The note is saved.' },
    },
    {
      name: 'asks to write a second note',
      expect: { lastUserMessageContains: 'second' },
      reply: {
        toolCalls: [
          {
            id: 'call_write_2',
            name: 'write_file',
            arguments: { path: 'second.md', content: 'approved later' },
          },
        ],
      },
    },
    {
      name: 'reports the second write',
      expect: { toolResults: [{ callId: 'call_write_2', contains: 'second.md' }] },
      reply: { text: 'The second note is saved.' },
    },
    {
      name: 'echoes slowly (cancelled with Ctrl-C; a cancelled turn asks the model nothing more)',
      expect: { lastUserMessageContains: 'slowly' },
      reply: {
        toolCalls: [{ id: 'call_slow', name: 'echo', arguments: { message: 'slow', delayMs: 10_000 } }],
      },
    },
  ],
};

describe('talon chat in a real pseudo-terminal', () => {
  let nats: NatsTestServer;
  let database: TestDatabase;
  let stateDir: string;
  const services: ServiceProcess[] = [];
  // The CLI signs in as the api NATS user with the operator token, as `talon up` sets it up.
  const cliAuth = () => ({ NATS_PASSWORD: nats.credentials.api, TALON_TOKEN: nats.bootstrapToken });

  beforeAll(async () => {
    [nats, database] = await Promise.all([startNatsTestServer(), createTestDatabase()]);
    stateDir = await mkdtemp(join(tmpdir(), 'talon-chat-'));
    const script = join(stateDir, 'script.json');
    await writeFile(script, JSON.stringify(SCRIPT));
    const base = {
      NATS_URL: nats.url,
      TALON_STATE_DIR: stateDir,
      TALON_WORKSPACE_DIR: join(stateDir, 'workspace'),
    };
    services.push(
      ...(await Promise.all([
        startServiceProcess('wasm-runner', base),
        startServiceProcess('tool-worker', { NATS_URL: nats.url }),
        startServiceProcess('skill-service', { ...base, SKILLS_WORKSPACE_DIR: join(stateDir, 'skills') }),
        startServiceProcess('orchestrator', {
          ...base,
          DATABASE_URL: database.url,
          TALON_HTTP_PORT: String(await findFreePort()),
          TALON_GRPC_PORT: String(await findFreePort()),
          TALON_LLM_PROVIDER: 'scripted',
          TALON_LLM_SCRIPT: script,
          TALON_SECRETS_KEY: Buffer.alloc(32, 3).toString('hex'),
        }),
      ])),
    );
    // The turns below need echo (tool-worker) and write_file (wasm-runner) in the catalog.
    const api = await connectTalonApi(nats.url);
    await waitUntil(
      async () => {
        const names = (
          await api.ok<{ tools: Array<{ definition: { name: string } }> }>('tools.list', {})
        ).tools.map((tool) => tool.definition.name);
        return names.includes('echo') && names.includes('write_file');
      },
      45_000,
      'echo and write_file in the catalog',
    );
    await api.close();
  }, 120_000);

  afterAll(async () => {
    await Promise.all(services.map((service) => service.kill()));
    await Promise.all([nats?.stop(), database?.drop()]);
    await rm(stateDir, { recursive: true, force: true });
  });

  function openTerminal() {
    const terminal = pty.spawn(process.execPath, [join(REPO_ROOT, 'apps/cli/dist/main.js'), 'chat'], {
      cols: 120,
      rows: 40,
      cwd: REPO_ROOT,
      env: { PATH: process.env.PATH ?? '', NATS_URL: nats.url, ...cliAuth(), TERM: 'xterm-256color' },
    });
    let screen = '';
    const waitFor = (needle: string | RegExp, timeoutMs = 45_000) =>
      new Promise<void>((resolve, reject) => {
        const started = Date.now();
        const check = setInterval(() => {
          const text = plain(screen);
          if (typeof needle === 'string' ? text.includes(needle) : needle.test(text)) {
            clearInterval(check);
            resolve();
          } else if (Date.now() - started > timeoutMs) {
            clearInterval(check);
            terminal.kill('SIGKILL');
            reject(new Error(`"${needle}" not seen on the terminal:\n${text}`));
          }
        }, 20);
      });
    terminal.onData((data) => (screen += data));
    const exit = new Promise<number>((resolve) => terminal.onExit(({ exitCode }) => resolve(exitCode)));
    // Rejects with the screen when the CLI has not exited in time (so a hang says where it stopped).
    const exited = (timeoutMs = 30_000) =>
      Promise.race([
        exit,
        new Promise<never>((_, reject) =>
          setTimeout(() => {
            terminal.kill('SIGKILL');
            reject(new Error(`talon chat did not exit in ${timeoutMs} ms:\n${plain(screen)}`));
          }, timeoutMs).unref(),
        ),
      ]);
    return { terminal, waitFor, exited, screen: () => screen };
  }

  it('streams a scripted conversation, asks for the approval inline and runs the tool after "yes"', async () => {
    const { terminal, waitFor, exited, screen } = openTerminal();
    await waitFor('you ›');
    terminal.write('/call echo {"message":"typed in a tty"}\r');
    // The call's one line: params, outcome and time (the typed text alone is echoed by the terminal at once).
    await waitFor(/✓ echo \{"message":"typed in a tty"[^\n]*\} {2}\d+ ms\n/);
    await waitFor(/✓ echo [^\n]*\ntyped in a tty\n/);
    // Said once: the typed line, the call's line and the output, never the raw outcome document.
    expect(plain(screen()).split('\ntyped in a tty\n')).toHaveLength(2);
    expect(plain(screen())).not.toContain('"callId"');
    terminal.write('please write the note\r');
    await waitFor('Writing the note now.');
    await waitFor(/allow write_file .*note\.md/);
    await waitFor('[y]es / [n]o / [a]lways');
    terminal.write('y\r');
    await waitFor('✓ write_file');
    await waitFor('The note is saved.');
    expect(await readFile(join(stateDir, 'workspace', 'note.md'), 'utf8')).toBe('from the pty');
    terminal.write('/exit\r');
    expect(await exited()).toBe(0);
  });

  it('lists tools and skills as tables, and Ctrl-C at an approval prompt leaves the approval pending', async () => {
    const { terminal, waitFor, exited, screen } = openTerminal();
    await waitFor('you ›');
    terminal.write('/tools file\r');
    await waitFor(/TOOL +APPROVAL +EFFECTS +DESCRIPTION\n/);
    await waitFor(/^write_file +\S+/m);
    await waitFor(/\d+ tools matching "file"/);
    expect(plain(screen())).not.toMatch(/^echo /m);
    expect(plain(screen())).not.toContain('"name":');
    terminal.write('/skills\r');
    await waitFor(/\d+ skills?(?: \(\d+ rejected\))?\n/);
    terminal.write('please write the second note\r');
    await waitFor(/allow write_file .*second\.md/);
    await waitFor('[y]es / [n]o / [a]lways');
    terminal.write('\x03');
    await waitFor(/approval \S+ stays pending: the turn waits for it/);
    // Pending indeed, and answered elsewhere (as the console's inbox would), the turn goes on here.
    const api = await connectTalonApi(nats.url, { token: nats.bootstrapToken });
    try {
      const { approvals } = await api.ok<{ approvals: Array<{ id: string; tool: string; status: string }> }>(
        'approvals.list',
        {},
      );
      const pending = approvals.find((approval) => approval.tool === 'write_file');
      expect(pending?.status).toBe('pending');
      expect(plain(screen())).toContain(`approval ${pending!.id} stays pending`);
      await api.ok('approvals.resolve', { id: pending!.id, decision: 'approve', resolvedBy: 'test' });
    } finally {
      await api.close();
    }
    await waitFor(/✓ write_file \{"path":"second\.md"/);
    await waitFor('The second note is saved.');
    expect(await readFile(join(stateDir, 'workspace', 'second.md'), 'utf8')).toBe('approved later');
    terminal.write('/approvals\r');
    await waitFor('no approvals waiting in this session');
    terminal.write('/exit\r');
    expect(await exited()).toBe(0);
  });

  it('Ctrl-C during a tool call cancels the turn and the call', async () => {
    const { terminal, waitFor, exited } = openTerminal();
    await waitFor('you ›');
    terminal.write('echo this slowly\r');
    // The spinner line of the running call.
    await waitFor(/[⠋⠙⠹⠸⠼⠴⠦⠧⠇⠏] echo \{"message":"slow"/);
    const pressed = Date.now();
    terminal.write('\x03');
    await waitFor('cancelling…');
    await waitFor('turn cancelled', 9_000);
    // Well before the 10 s the call would take: the cancel reached the worker's call.
    expect(Date.now() - pressed).toBeLessThan(9_000);
    await waitFor(/you › *$/);
    terminal.write('/exit\r');
    expect(await exited()).toBe(0);
  });

  it('talon secret set reads the value hidden on a terminal', async () => {
    const terminal = pty.spawn(
      process.execPath,
      [join(REPO_ROOT, 'apps/cli/dist/main.js'), 'secret', 'set', 'PTY_TOKEN', '--host', 'example.com'],
      {
        cols: 120,
        rows: 20,
        cwd: REPO_ROOT,
        env: { PATH: process.env.PATH ?? '', NATS_URL: nats.url, ...cliAuth(), TERM: 'xterm-256color' },
      },
    );
    let screen = '';
    terminal.onData((data) => (screen += data));
    const exit = new Promise<number>((resolve) => terminal.onExit(({ exitCode }) => resolve(exitCode)));
    await waitUntil(() => screen.includes('not shown as you type'), 30_000, 'the hidden prompt');
    terminal.write('ptyHiddenValue123\r');
    expect(await exit).toBe(0);
    expect(plain(screen)).toContain('stored PTY_TOKEN (sent only to: example.com)');
    expect(screen).not.toContain('ptyHiddenValue');
  });

  it('talon secret sets a value from stdin, lists names only, and deletes', () => {
    const cli = (args: string[], input?: string) =>
      spawnSync(process.execPath, [join(REPO_ROOT, 'apps/cli/dist/main.js'), 'secret', ...args], {
        input,
        encoding: 'utf8',
        env: { PATH: process.env.PATH ?? '', NATS_URL: nats.url, ...cliAuth() },
      });
    const set = cli(['set', 'GITHUB_TOKEN', '--host', 'api.github.com'], 'ghp_cliValue1234567890abcdef\n');
    expect(set.status).toBe(0);
    expect(set.stdout).toContain('stored GITHUB_TOKEN (sent only to: api.github.com)');
    const list = cli(['list']);
    expect(list.stdout).toMatch(/GITHUB_TOKEN\s+bearer\s+api\.github\.com/);
    expect(list.stdout + set.stdout).not.toContain('ghp_cliValue');
    expect(cli(['delete', 'GITHUB_TOKEN']).stdout).toContain('deleted GITHUB_TOKEN');
    expect(cli(['set']).status).toBe(2);
    const empty = cli(['set', 'EMPTY_TOKEN'], '\n');
    expect(empty.status).toBe(2);
    expect(empty.stdout).toContain('The value of EMPTY_TOKEN is empty: nothing was stored.');
    expect(cli(['list']).stdout).not.toContain('EMPTY_TOKEN');
  });

  it('without a model, says how to configure one and still runs slash commands', async () => {
    const orchestrator = services.pop()!;
    // Replaced at once (no drain to wait for: nothing runs on it now).
    await orchestrator.kill();
    services.push(
      await startServiceProcess('orchestrator', {
        NATS_URL: nats.url,
        TALON_STATE_DIR: stateDir,
        DATABASE_URL: database.url,
        TALON_HTTP_PORT: String(await findFreePort()),
        TALON_GRPC_PORT: String(await findFreePort()),
        TALON_SECRETS_KEY: Buffer.alloc(32, 3).toString('hex'),
      }),
    );
    const { terminal, waitFor, exited } = openTerminal();
    await waitFor('No model is configured. Set TALON_LLM_PROVIDER');
    await waitFor('you ›');
    // Typed ahead: the second line arrives while /tools still runs and waits its turn.
    terminal.write('/tools\rhello there\r');
    await waitFor(/^read_file +\S+/m);
    await waitFor(/error: No model is configured/);
    terminal.write('/exit\r');
    expect(await exited()).toBe(0);
  }, 120_000);
});
