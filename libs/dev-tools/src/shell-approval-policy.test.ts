import { describe, expect, it } from '@jest/globals';
import { decideShellApproval } from './shell-approval-policy.js';
import { parseShellCommand } from './shell-command-parser.js';

function approvalOf(command: string): string {
  return decideShellApproval(parseShellCommand(command)).approval;
}

describe('decideShellApproval', () => {
  it.each([
    'ls -la',
    'pwd',
    'cat README.md src/a.ts',
    'echo hello',
    'grep -rn "TODO" src',
    'wc -l src/*.ts',
    'head -n 20 a.txt | tail -n 5',
    "find . -name '*.ts' -type f",
    'git status',
    'git log --oneline -n 5',
    'git diff HEAD~1',
    'ls 2>/dev/null',
    'grep foo a.txt 2>&1 | wc -l',
    'time ls',
    'nice -n 5 cat a.txt',
    'env ls',
    "sh -c 'ls && pwd'",
  ])('needs no approval for the read-only %j', (command) => {
    expect(approvalOf(command)).toBe('never');
  });

  it.each([
    ['a writing program', 'rm -rf build'],
    ['rm hidden by env and sh -c', "env sh -c 'rm -rf x'"],
    ['rm hidden by nested wrappers', `nice timeout 5 bash -c "nohup rm x"`],
    ['rm fed by xargs', 'find . -name "*.o" | xargs rm'],
    ['a read-only program fed by xargs', 'cat list.txt | xargs cat'],
    ['a writing program after a read-only one', 'ls; rm x'],
    ['a command substitution', 'echo $(ls)'],
    ['a backtick substitution', 'echo `whoami`'],
    ['output redirection to a file', 'echo hi > file.txt'],
    ['append redirection', 'cat a >> b'],
    ['redirection of a whole sh -c script', "sh -c 'ls' > out.txt"],
    ['find -exec', 'find . -exec rm {} ;'],
    ['find -delete', 'find . -name x -delete'],
    ['git writing subcommand', 'git push origin main'],
    ['git config override', 'git -c core.pager=evil log'],
    ['git diff --output', 'git diff --output=/tmp/x'],
    ['an absolute path outside', 'cat /etc/passwd'],
    ['a parent path', 'cat ../secret.txt'],
    ['a glob that can match ..', 'cat .*/secret.txt'],
    ['a glob program name', '/bin/r? x'],
    ['a home path', 'cat ~/.ssh/id_rsa'],
    ['an option value with an absolute path', 'grep --file=/etc/shadow x'],
    ['an attached option value with an absolute path', 'grep -f/etc/shadow x'],
    ['input from outside', 'cat < /etc/passwd'],
    ['a PATH override', 'PATH=/tmp/evil ls'],
    ['env assignment', 'env LD_PRELOAD=x.so ls'],
    ['a variable program', '$CMD'],
    ['a variable argument', 'cat $FILE'],
    ['a local script named like a read-only program', './ls'],
    ['a background job', 'ls &'],
    ['a shell reading its script from a pipe', 'cat x | sh'],
    ['process substitution', 'cat <(ls)'],
  ])('needs approval for %s: %j', (_name, command) => {
    const decision = decideShellApproval(parseShellCommand(command));
    expect(decision.approval).toBe('unless_auto_approved');
    expect(decision.reasons.length).toBeGreaterThan(0);
  });

  it('explains why approval is needed in terms of the unwrapped program', () => {
    expect(decideShellApproval(parseShellCommand("env sh -c 'rm -rf x'")).reasons).toEqual([
      'rm is not a read-only program',
    ]);
  });
});
