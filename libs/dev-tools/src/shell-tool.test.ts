import { afterEach, beforeEach, describe, expect, it } from '@jest/globals';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { createWorkspaceFixture, type WorkspaceFixture } from '../test/workspace-fixture.js';
import { ShellCommandRefusedError } from './shell-command-refused-error.js';
import { createShellTool, SHELL_PATH } from './shell-tool.js';

let fixture: WorkspaceFixture;

beforeEach(() => {
  fixture = createWorkspaceFixture();
});
afterEach(() => fixture.cleanup());

/** Host processes whose command line contains `marker` (the sandbox's own pids mean nothing out here). */
function hostProcessesWith(marker: string): number[] {
  const found: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      if (stat.slice(stat.lastIndexOf(')') + 2)[0] === 'Z') continue;
      if (readFileSync(`/proc/${entry}/cmdline`, 'utf8').split('\0').join(' ').includes(marker))
        found.push(Number(entry));
    } catch {
      // The process ended while we looked.
    }
  }
  return found;
}

async function waitUntilGone(marker: string, withinMs: number): Promise<number[]> {
  const deadline = Date.now() + withinMs;
  while (Date.now() < deadline) {
    if (hostProcessesWith(marker).length === 0) return [];
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  return hostProcessesWith(marker);
}

describe('shell tool', () => {
  it('runs in the workspace root and returns exit code, stdout and stderr', async () => {
    const shell = createShellTool({ root: fixture.root });
    const result = await shell.execute({ command: 'pwd; echo oops >&2; exit 3' }, fixture.context);
    expect(result).toMatchObject({
      exitCode: 3,
      stdout: `${fixture.root}\n`,
      stderr: 'oops\n',
      timedOut: false,
      programs: ['pwd', 'echo', 'exit'],
    });
  });

  it('runs with a clean environment: no secret of the runner is visible', async () => {
    process.env.TALON_TEST_SECRET = 'hunter2-do-not-leak';
    try {
      const shell = createShellTool({ root: fixture.root });
      const result = await shell.execute({ command: 'env' }, fixture.context);
      expect(result.stdout).not.toContain('hunter2');
      const names = result.stdout
        .trim()
        .split('\n')
        .map((line) => line.slice(0, line.indexOf('=')));
      // Besides these, only the settings that switch off git's program-running configuration.
      for (const name of names.filter((entry) => !/^(GIT_|PAGER$)/.test(entry)))
        expect(['PATH', 'HOME', 'TMPDIR', 'USER', 'LOGNAME', 'SHELL', 'LANG', 'TERM', 'PWD']).toContain(name);
      expect(result.stdout).toContain('HOME=/tmp\n');
      expect(result.stdout).toContain(`PATH=${SHELL_PATH}\n`);
    } finally {
      delete process.env.TALON_TEST_SECRET;
    }
  });

  it('stops `sleep 30` and its children at the timeout, quickly', async () => {
    const shell = createShellTool({ root: fixture.root });
    const started = Date.now();
    const result = await shell.execute(
      { command: 'sleep 3001 & sleep 3001', timeoutMs: 300 },
      fixture.context,
    );
    const elapsed = Date.now() - started;
    expect(result.timedOut).toBe(true);
    expect(result.exitCode).toBeNull();
    expect(elapsed).toBeLessThan(2000);
    expect(await waitUntilGone('sleep 3001', 1000)).toEqual([]);
  });

  it('ends a command that ignores SIGTERM at its timeout, with everything it started', async () => {
    const shell = createShellTool({ root: fixture.root, caps: { shellKillGraceMs: 200 } });
    const started = Date.now();
    const result = await shell.execute(
      { command: "trap '' TERM; sleep 3002 & sleep 3002", timeoutMs: 300 },
      fixture.context,
    );
    expect(result.timedOut).toBe(true);
    expect(result.exitCode).toBeNull();
    expect(Date.now() - started).toBeLessThan(2500);
    expect(await waitUntilGone('sleep 3002', 1000)).toEqual([]);
  });

  it('does not wait for background processes and kills them when the shell exits', async () => {
    const shell = createShellTool({ root: fixture.root });
    const started = Date.now();
    const result = await shell.execute(
      { command: 'nohup sleep 3003 >/dev/null 2>&1 & echo started' },
      fixture.context,
    );
    expect(result.stdout).toBe('started\n');
    expect(Date.now() - started).toBeLessThan(3000);
    expect(await waitUntilGone('sleep 3003', 1000)).toEqual([]);
  });

  it('stops the command when the call is aborted', async () => {
    const shell = createShellTool({ root: fixture.root });
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 200);
    const started = Date.now();
    const result = await shell.execute(
      { command: 'sleep 30' },
      { ...fixture.context, signal: controller.signal },
    );
    expect(Date.now() - started).toBeLessThan(2000);
    expect(result.exitCode).toBeNull();
  });

  it('caps stdout and stderr with a truncation marker', async () => {
    const shell = createShellTool({ root: fixture.root, caps: { maxShellOutputBytes: 1000 } });
    const result = await shell.execute(
      { command: "head -c 500000 /dev/zero | tr '\\000' a; head -c 3000 /dev/zero | tr '\\000' b >&2" },
      fixture.context,
    );
    expect(result.exitCode).toBe(0);
    expect(result.stdoutTruncated).toBe(true);
    expect(result.stderrTruncated).toBe(true);
    expect(result.stdout.startsWith('a'.repeat(1000) + '\n[')).toBe(true);
    expect(result.stdout).toContain('499000 more bytes');
    expect(result.stderr).toContain('2000 more bytes');
  });

  it('refuses a command with a hidden newline before running anything', async () => {
    const shell = createShellTool({ root: fixture.root });
    await expect(shell.execute({ command: 'touch a\ntouch b' }, fixture.context)).rejects.toBeInstanceOf(
      ShellCommandRefusedError,
    );
    await expect(
      shell.execute({ command: "touch a; sh -c $'touch b\\ntouch c'" }, fixture.context),
    ).rejects.toBeInstanceOf(ShellCommandRefusedError);
    expect(existsSync(join(fixture.root, 'a'))).toBe(false);
  });

  it('decides approval on the programs that will really run', () => {
    const shell = createShellTool({ root: fixture.root });
    expect(shell.definition).toMatchObject({
      name: 'shell',
      domain: 'container',
      source: 'builtin',
      approval: 'unless_auto_approved',
    });
    expect(shell.approvalFor!({ command: 'ls -la && git status' })).toBe('never');
    expect(shell.approvalFor!({ command: "env sh -c 'rm -rf x'" })).toBe('unless_auto_approved');
    expect(shell.approvalFor!({ command: 'ls\nrm -rf x' })).toBe('unless_auto_approved');
  });
});
