import { afterEach, beforeEach, describe, expect, it } from '@jest/globals';
import { execFileSync } from 'node:child_process';
import { appendFileSync, existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createWorkspaceFixture, type WorkspaceFixture } from '../test/workspace-fixture.js';
import { gitConfigRisks } from './git-config-risks.js';
import { createShellTool, explainShellApproval } from './shell-tool.js';

let fixture: WorkspaceFixture;
const git = (...args: string[]) =>
  // The workspace may belong to the sandbox user: the test's own git (root) must accept it.
  execFileSync('git', ['-c', 'safe.directory=*', '-c', 'user.email=t@t', '-c', 'user.name=t', ...args], {
    cwd: fixture.root,
  });

beforeEach(() => {
  fixture = createWorkspaceFixture();
  git('init', '-q', '.');
  writeFileSync(join(fixture.root, 'file.txt'), 'one\n');
  git('add', 'file.txt');
  git('commit', '-qm', 'first');
  writeFileSync(join(fixture.root, 'file.txt'), 'two\n');
});
afterEach(() => fixture.cleanup());

describe('git under a hostile workspace .git/config', () => {
  it('auto-approves git status and diff in a clean repository', () => {
    expect(gitConfigRisks(fixture.root)).toEqual([]);
    for (const command of ['git status', 'git diff', 'git log --oneline'])
      expect(explainShellApproval(fixture.root, command)).toMatchObject({ approval: 'never' });
  });

  it('asks a person while the config sets a program, naming the setting', () => {
    appendFileSync(
      join(fixture.root, '.git/config'),
      '[core]\n\tfsmonitor = "touch marker-fsmonitor; false"\n[diff "x"]\n\ttextconv = touch marker-textconv\n[alias]\n\tst = !touch marker-alias\n',
    );
    expect(gitConfigRisks(fixture.root).sort()).toEqual(['alias.st', 'core.fsmonitor', 'diff.x.textconv']);
    const decision = explainShellApproval(fixture.root, 'git status');
    expect(decision.approval).toBe('unless_auto_approved');
    expect(decision.reasons.join(' ')).toContain('core.fsmonitor');
    expect(explainShellApproval(fixture.root, 'ls')).toMatchObject({ approval: 'never' });
  });

  it('runs git with the program settings switched off even once approved: no marker is written', async () => {
    appendFileSync(
      join(fixture.root, '.git/config'),
      `[core]\n\tfsmonitor = "touch ${fixture.root}/marker-fsmonitor; false"\n\tpager = "touch ${fixture.root}/marker-pager; cat"\n\thooksPath = hooks-here\n[diff]\n\texternal = "touch ${fixture.root}/marker-external"\n`,
    );
    const shell = createShellTool({ root: fixture.root });
    const status = await shell.execute({ command: 'git status --short' }, fixture.context);
    expect(status.stdout).toContain('file.txt');
    await shell.execute({ command: 'git diff; git log -1' }, fixture.context);
    for (const marker of ['marker-fsmonitor', 'marker-pager', 'marker-external'])
      expect(existsSync(join(fixture.root, marker))).toBe(false);
  });

  it('treats a .git file (a pointer to a git directory elsewhere) as a risk', () => {
    const other = createWorkspaceFixture();
    try {
      writeFileSync(join(other.root, '.git'), 'gitdir: /somewhere/else\n');
      expect(explainShellApproval(other.root, 'git status').approval).toBe('unless_auto_approved');
    } finally {
      other.cleanup();
    }
  });
});
