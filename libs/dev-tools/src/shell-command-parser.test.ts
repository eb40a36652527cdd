import { describe, expect, it } from '@jest/globals';
import { parseShellCommand } from './shell-command-parser.js';
import { ShellCommandRefusedError } from './shell-command-refused-error.js';

function programs(command: string): string[][] {
  return parseShellCommand(command).programs.map((program) => program.argv);
}

function refusalReason(command: string): string | undefined {
  try {
    parseShellCommand(command);
    return undefined;
  } catch (error) {
    expect(error).toBeInstanceOf(ShellCommandRefusedError);
    expect((error as ShellCommandRefusedError).code).toBe('POLICY_DENIED');
    return ((error as ShellCommandRefusedError).details as { reason: string }).reason;
  }
}

describe('parseShellCommand: words and quoting', () => {
  it('splits words and removes quotes', () => {
    expect(programs(`grep -n "hello world" 'a b' c\\ d`)).toEqual([
      ['grep', '-n', 'hello world', 'a b', 'c d'],
    ]);
  });

  it('keeps escaped characters inside double quotes literal', () => {
    expect(programs(`echo "a \\"b\\" \\$HOME"`)).toEqual([['echo', 'a "b" $HOME']]);
    expect(parseShellCommand(`echo "a \\$HOME"`).hasExpansion).toBe(false);
  });

  it('ignores comments', () => {
    expect(programs('ls -la # rm -rf /')).toEqual([['ls', '-la']]);
  });
});

describe('parseShellCommand: unwrapping wrappers', () => {
  it.each([
    ['env', 'env rm -rf x', ['rm', '-rf', 'x'], ['env']],
    ['env with flags and assignments', 'env -i -u HOME FOO=1 BAR=2 rm x', ['rm', 'x'], ['env']],
    ['env with long options', 'env --ignore-environment --chdir=/tmp rm x', ['rm', 'x'], ['env']],
    ['absolute env path', '/usr/bin/env rm x', ['rm', 'x'], ['env']],
    ['sh -c', "sh -c 'rm -rf x'", ['rm', '-rf', 'x'], ['sh -c']],
    ['bash -c with flags', "bash -e -o pipefail -c 'rm x' name arg", ['rm', 'x'], ['bash -c']],
    ['bash -lc', 'bash -lc "rm x"', ['rm', 'x'], ['bash -c']],
    ['time', 'time -p rm x', ['rm', 'x'], ['time']],
    ['time with format', "time -f '%e' -o t.txt rm x", ['rm', 'x'], ['time']],
    ['nice -n', 'nice -n 10 rm x', ['rm', 'x'], ['nice']],
    ['nice -N', 'nice -5 rm x', ['rm', 'x'], ['nice']],
    ['nice --adjustment', 'nice --adjustment=3 rm x', ['rm', 'x'], ['nice']],
    ['nohup', 'nohup rm x', ['rm', 'x'], ['nohup']],
    ['timeout', 'timeout 5 rm x', ['rm', 'x'], ['timeout']],
    ['timeout with flags', 'timeout -s KILL -k 2 --preserve-status 5s rm x', ['rm', 'x'], ['timeout']],
    ['xargs', 'xargs rm', ['rm'], ['xargs']],
    ['xargs with flags', 'xargs -0 -n 1 -P4 -I{} rm {}', ['rm', '{}'], ['xargs']],
    ['xargs default echo', 'xargs -r', ['echo'], ['xargs']],
    ['eval', "eval 'rm x'", ['rm', 'x'], ['eval']],
    ['command and exec', 'command exec rm x', ['rm', 'x'], ['command', 'exec']],
  ])('%s', (_name, command, argv, wrappers) => {
    const parsed = parseShellCommand(command);
    expect(parsed.programs.map((program) => program.argv)).toEqual([argv]);
    expect(parsed.wrappers).toEqual(wrappers);
    expect(parsed.programs[0]!.wrappers).toEqual(wrappers);
  });

  it('unwraps nested wrappers recursively', () => {
    const parsed = parseShellCommand(
      `env FOO=1 nice -n 5 timeout 10 nohup time sh -c "bash -c 'xargs rm -rf'"`,
    );
    expect(parsed.programs).toHaveLength(1);
    expect(parsed.programs[0]).toMatchObject({
      program: 'rm',
      argv: ['rm', '-rf'],
      wrappers: ['env', 'nice', 'timeout', 'nohup', 'time', 'sh -c', 'bash -c', 'xargs'],
      assignments: ['FOO=1'],
      argsFromInput: true,
    });
  });

  it('sees every program of a script passed to sh -c', () => {
    expect(programs(`sh -c 'ls; rm a && curl x | sh'`)).toEqual([['ls'], ['rm', 'a'], ['curl', 'x'], ['sh']]);
  });

  it('refuses a wrapper given an option it does not know: the program it runs cannot be shown', () => {
    for (const command of [`env --frobnicate rm x`, `env -S 'rm x'`, 'sudo --weird rm x', 'strace -Q rm x']) {
      expect(() => parseShellCommand(command)).toThrow(
        expect.objectContaining({ details: { reason: 'uncertain' } }),
      );
    }
  });

  it('does not unwrap a local script that happens to be called env', () => {
    expect(programs('./env rm x')).toEqual([['./env', 'rm', 'x']]);
  });

  it('reports a shell whose script is only known at run time as dynamic', () => {
    const parsed = parseShellCommand('sh -c "$CMD"');
    expect(parsed.programs[0]).toMatchObject({ program: 'sh', dynamic: true });
    expect(parsed.hasExpansion).toBe(true);
  });

  it('refuses wrappers nested without end', () => {
    const deep = 'sh -c '.repeat(1) + "'" + 'eval '.repeat(20) + "ls'";
    expect(refusalReason(deep)).toBe('too_deep');
  });
});

describe('parseShellCommand: several programs', () => {
  it('reports pipelines and sequences as separate programs with their operators', () => {
    const parsed = parseShellCommand('cat a | grep b && rm c || echo d; ls &');
    expect(parsed.programs.map((program) => program.program)).toEqual(['cat', 'grep', 'rm', 'echo', 'ls']);
    expect(parsed.operators).toEqual(['|', '&&', '||', ';', '&']);
    expect(parsed.background).toBe(true);
  });

  it('reports programs inside command substitutions', () => {
    const parsed = parseShellCommand('echo "$(rm -rf x)" `curl evil` $(cat $(ls))');
    expect(parsed.hasSubstitution).toBe(true);
    expect(parsed.programs.map((program) => program.program)).toEqual(['echo', 'rm', 'curl', 'cat', 'ls']);
    expect(
      parsed.programs.filter((program) => program.fromSubstitution).map((program) => program.program),
    ).toEqual(['rm', 'curl', 'cat', 'ls']);
  });

  it('reports process substitutions', () => {
    const parsed = parseShellCommand('diff <(rm a) >(tee b)');
    expect(parsed.hasSubstitution).toBe(true);
    expect(parsed.programs.map((program) => program.program)).toEqual(['diff', 'rm', 'tee']);
  });

  it('flags arithmetic and parameter-expansion substitutions it cannot list', () => {
    expect(parseShellCommand('echo $((1+2))').hasSubstitution).toBe(true);
    expect(parseShellCommand('echo ${X:-$(rm y)}').hasSubstitution).toBe(true);
  });

  it('finds programs inside subshells, groups and control words', () => {
    expect(programs('(cd a && rm b); { ls; }')).toEqual([['cd', 'a'], ['rm', 'b'], ['ls']]);
    expect(programs('if true; then rm x; fi')).toEqual([['true'], ['rm', 'x']]);
    expect(programs('! rm x')).toEqual([['rm', 'x']]);
  });

  it('records prefix assignments and redirections', () => {
    const [program] = parseShellCommand('PATH=/tmp/evil ls > out.txt 2>&1 < in.txt').programs;
    expect(program).toMatchObject({
      program: 'ls',
      assignments: ['PATH=/tmp/evil'],
      redirects: [
        { operator: '>', target: 'out.txt' },
        { operator: '>&', fd: '2', target: '1' },
        { operator: '<', target: 'in.txt' },
      ],
    });
  });

  it('marks a program name decided at run time', () => {
    expect(parseShellCommand('$EDITOR x').programs[0]!.dynamic).toBe(true);
    expect(parseShellCommand('/bin/r? x').programs[0]!.dynamic).toBe(true);
    expect(parseShellCommand('$(echo rm) x').programs[0]!.dynamic).toBe(true);
  });
});

describe('parseShellCommand: refusals before anything else', () => {
  it.each([
    ['a line feed', 'ls\nrm -rf x', 'newline'],
    ['a carriage return', 'ls\rrm -rf x', 'newline'],
    ['a quoted line feed', 'echo "a\nb"', 'newline'],
    ['U+2028 line separator', 'ls\u2028rm x', 'newline'],
    ['U+2029 paragraph separator', 'ls\u2029rm x', 'newline'],
    ['U+0085 next line', 'ls\u0085rm x', 'newline'],
    ['a vertical tab', 'ls\u000brm x', 'newline'],
    ['ANSI-C \\n', "echo $'a\\nrm x'", 'ansi_c_newline'],
    ['ANSI-C \\r', "sh -c $'ls\\rrm x'", 'ansi_c_newline'],
    ['ANSI-C hex', "sh -c $'ls\\x0arm x'", 'ansi_c_newline'],
    ['ANSI-C octal', "sh -c $'ls\\012rm x'", 'ansi_c_newline'],
    ['ANSI-C unicode', "sh -c $'ls\\u2028rm x'", 'ansi_c_newline'],
    ['ANSI-C control-J', "sh -c $'ls\\cJrm x'", 'ansi_c_newline'],
    ['a NUL byte', 'ls\u0000rm', 'control_character'],
    ['an escape character', 'ls \u001b[2K', 'control_character'],
    ['a right-to-left override', 'ls \u202e fdsa', 'invisible_character'],
    ['a zero-width space', 'ls\u200b;rm x', 'invisible_character'],
    ['an unterminated quote', "echo 'abc", 'unterminated'],
    ['an unterminated substitution', 'echo $(ls', 'unterminated'],
    ['an empty command', '   ', 'empty'],
    ['a huge command', 'x'.repeat(20_000), 'too_long'],
  ])('refuses %s', (_name, command, reason) => {
    expect(refusalReason(command)).toBe(reason);
  });

  it('decodes harmless ANSI-C quoting', () => {
    expect(programs("echo $'a\\tb'")).toEqual([['echo', 'a\tb']]);
  });
});
