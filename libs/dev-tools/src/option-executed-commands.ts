import type { ShellWord } from './shell-tokenizer.js';
import { wrapperNameOf } from './shell-wrapper-unwrapper.js';

/**
 * A program one program runs through an option or its own script language: a shell command line
 * (`tar --to-command='gzip -9'`), a program with its arguments (`find -exec rm {} ;`), or something
 * that runs programs but cannot be read with confidence (`awk '{ system($0) }'`, `vim -c …`, a git alias).
 */
export type OptionExecutedCommand =
  | { kind: 'script'; via: string; script: ShellWord }
  | { kind: 'argv'; via: string; argv: ShellWord[] }
  | { kind: 'opaque'; via: string; why: string };

/** Options whose value is a shell command line, per program (`--long` and `-x` forms). */
const COMMAND_OPTIONS: Record<string, readonly string[]> = {
  tar: [
    '--to-command',
    '--use-compress-program',
    '-I',
    '--info-script',
    '--new-volume-script',
    '-F',
    '--rsh-command',
  ],
  rsync: ['-e', '--rsh', '--rsync-path'],
  zip: ['-TT', '--unzip-command'],
  scp: ['-S'],
  man: ['-P', '--pager', '-H', '--html'],
  git: ['--upload-pack', '--receive-pack', '-u', '--exec', '-x'],
  rebase: ['--exec', '-x'],
  ncat: ['--exec', '-e', '--sh-exec', '-c'],
  nc: ['-e', '-c'],
  socat: [],
};
/** ssh options (`-o Key=value`) whose value is a command line. */
const SSH_COMMAND_KEYS = /^(proxycommand|localcommand|knownhostscommand|remotecommand)$/i;
/** git configuration keys (`-c key=value`, or in a `.git/config`) that run programs. */
export const GIT_PROGRAM_KEYS =
  /^(core\.(pager|editor|sshcommand|fsmonitor|hookspath|askpass|gitproxy)|diff\.external|sequence\.editor|gpg\.(program|[a-z0-9]+\.program)|credential\.helper|alias\..+|pager\..+|filter\..+\.(clean|smudge|process)|diff\..+\.(textconv|command)|merge\..+\.driver|difftool\..+\.cmd|mergetool\..+\.cmd|uploadpack\.packobjectshook|protocol\..+|remote\..+\.(uploadpack|receivepack|vcs)|include\.path|includeif\..+\.path)$/i;
/** git subcommands built into git: any other word may be an alias, which can run a shell command. */
const GIT_BUILTINS = new Set(
  'add am annotate apply archive bisect blame branch bundle cat-file check-attr check-ignore checkout cherry cherry-pick clean clone commit config count-objects describe diff diff-files diff-index diff-tree fetch for-each-ref format-patch fsck gc grep help init log ls-files ls-remote ls-tree merge merge-base mv notes pull push range-diff rebase reflog remote reset restore rev-list rev-parse revert rm shortlog show show-ref sparse-checkout stash status submodule switch tag version whatchanged worktree'.split(
    ' ',
  ),
);
const AWK = new Set(['awk', 'gawk', 'mawk', 'nawk', 'busybox-awk']);
const EDITORS = new Set(['vim', 'vi', 'nvim', 'ex', 'view', 'gvim', 'rvim']);
const PAGERS = new Set(['less', 'more', 'most']);
const FIND_EXEC = new Set(['-exec', '-execdir', '-ok', '-okdir']);

/** Every program `argv` would run through its options or script, in order. */
export function optionExecutedCommands(argv: readonly ShellWord[]): OptionExecutedCommand[] {
  const name = argv[0] ? wrapperNameOf(argv[0]) : undefined;
  if (name === undefined) return [];
  const found: OptionExecutedCommand[] = [];
  const options = COMMAND_OPTIONS[name];
  if (options) found.push(...commandOptionValues(name, argv, options));
  if (name === 'ssh' || name === 'scp' || name === 'sftp') found.push(...sshCommands(name, argv));
  if (name === 'git') found.push(...gitCommands(argv));
  if (name === 'find') found.push(...findCommands(argv));
  if (AWK.has(name)) found.push(...awkCommands(name, argv));
  if (EDITORS.has(name)) found.push(...editorCommands(name, argv));
  if (PAGERS.has(name) || name === 'man')
    found.push({ kind: 'opaque', via: name, why: `${name} can run any program from its prompt (!command)` });
  return found;
}

/** `--opt=value`, `--opt value`, `-X value` and `-Xvalue` forms of the listed options. */
function commandOptionValues(
  name: string,
  argv: readonly ShellWord[],
  options: readonly string[],
): OptionExecutedCommand[] {
  const found: OptionExecutedCommand[] = [];
  for (let index = 1; index < argv.length; index++) {
    const word = argv[index]!;
    for (const option of options) {
      let value: ShellWord | undefined;
      if (word.text === option) value = argv[++index];
      else if (option.startsWith('--') && word.text.startsWith(`${option}=`))
        value = { ...word, text: word.text.slice(option.length + 1) };
      else if (!option.startsWith('--') && option.length === 2 && word.text.startsWith(option))
        value = { ...word, text: word.text.slice(2) };
      if (value === undefined) continue;
      found.push({ kind: 'script', via: `${name} ${option}`, script: value });
      break;
    }
    if (name === 'tar' && /^--checkpoint-action=exec=/.test(word.text))
      found.push({
        kind: 'script',
        via: 'tar --checkpoint-action=exec',
        script: { ...word, text: word.text.slice('--checkpoint-action=exec='.length) },
      });
  }
  return found;
}

function sshCommands(name: string, argv: readonly ShellWord[]): OptionExecutedCommand[] {
  const found: OptionExecutedCommand[] = [];
  for (let index = 1; index < argv.length; index++) {
    const text = argv[index]!.text;
    let setting: ShellWord | undefined;
    if (text === '-o') setting = argv[++index];
    else if (text.startsWith('-o')) setting = { ...argv[index]!, text: text.slice(2) };
    else if (text === '-F' || text.startsWith('-F'))
      found.push({ kind: 'opaque', via: `${name} -F`, why: 'a configuration file can set ProxyCommand' });
    if (!setting) continue;
    const match = /^([A-Za-z]+)\s*[= ]\s*(.*)$/s.exec(setting.text);
    if (match && SSH_COMMAND_KEYS.test(match[1]!))
      found.push({ kind: 'script', via: `${name} -o ${match[1]}`, script: { ...setting, text: match[2]! } });
  }
  return found;
}

function gitCommands(argv: readonly ShellWord[]): OptionExecutedCommand[] {
  const found: OptionExecutedCommand[] = [];
  let index = 1;
  // Global options before the subcommand.
  while (index < argv.length && argv[index]!.text.startsWith('-')) {
    const text = argv[index]!.text;
    if (text === '-c' || text === '--config-env') {
      const setting = argv[++index];
      const key = setting?.text.split('=')[0] ?? '';
      if (setting && (setting.dynamic || GIT_PROGRAM_KEYS.test(key)))
        found.push({ kind: 'opaque', via: `git ${text} ${key}`, why: `git setting ${key} runs a program` });
    } else if (/^-c.+/.test(text) || text.startsWith('--config-env=')) {
      found.push({ kind: 'opaque', via: 'git -c', why: 'git settings given on the command line' });
    } else if (text === '-C' || text === '--git-dir' || text === '--work-tree' || text === '--namespace') {
      index++;
    } else if (text.startsWith('--exec-path')) {
      found.push({
        kind: 'opaque',
        via: 'git --exec-path',
        why: 'git runs its commands from another folder',
      });
    }
    index++;
  }
  const subcommand = argv[index];
  if (subcommand && (subcommand.dynamic || !GIT_BUILTINS.has(subcommand.text)))
    found.push({
      kind: 'opaque',
      via: `git ${subcommand.text}`,
      why: `"${subcommand.text}" is not a git command and may be an alias, which can run a shell command`,
    });
  for (let rest = index + 1; rest < argv.length; rest++) {
    const text = argv[rest]!.text;
    for (const option of COMMAND_OPTIONS.git!) {
      if (text === option && argv[rest + 1])
        found.push({
          kind: 'script',
          via: `git ${subcommand?.text ?? ''} ${option}`,
          script: argv[rest + 1]!,
        });
      else if (option.startsWith('--') && text.startsWith(`${option}=`))
        found.push({
          kind: 'script',
          via: `git ${subcommand?.text ?? ''} ${option}`,
          script: { ...argv[rest]!, text: text.slice(option.length + 1) },
        });
    }
  }
  return found;
}

function findCommands(argv: readonly ShellWord[]): OptionExecutedCommand[] {
  const found: OptionExecutedCommand[] = [];
  for (let index = 1; index < argv.length; index++) {
    const text = argv[index]!.text;
    if (!FIND_EXEC.has(text)) continue;
    const command: ShellWord[] = [];
    for (index++; index < argv.length && argv[index]!.text !== ';' && argv[index]!.text !== '+'; index++)
      command.push(argv[index]!);
    if (command.length > 0) found.push({ kind: 'argv', via: `find ${text}`, argv: command });
  }
  return found;
}

/**
 * awk runs programs through `system(…)`, `print | "cmd"`, `"cmd" | getline` and `|&`. A literal command
 * string is parsed; anything else (a variable, a concatenation, a program file) is opaque.
 */
function awkCommands(name: string, argv: readonly ShellWord[]): OptionExecutedCommand[] {
  const found: OptionExecutedCommand[] = [];
  let program: ShellWord | undefined;
  for (let index = 1; index < argv.length; index++) {
    const text = argv[index]!.text;
    if (text === '-f' || text.startsWith('-f') || text.startsWith('--file'))
      return [{ kind: 'opaque', via: `${name} -f`, why: 'the awk program is read from a file' }];
    if (text === '-v' || text === '-F') {
      index++;
      continue;
    }
    if (text.startsWith('-')) continue;
    program = argv[index];
    break;
  }
  if (!program) return found;
  if (program.dynamic) return [{ kind: 'opaque', via: name, why: 'the awk program is decided at run time' }];
  // `||` is a logical or, not a pipe.
  const source = program.text.replace(/\|\|/g, '  ');
  const literal =
    /\bsystem\s*\(\s*"((?:[^"\\]|\\.)*)"\s*\)|\|&?\s*"((?:[^"\\]|\\.)*)"|"((?:[^"\\]|\\.)*)"\s*\|&?\s*getline/g;
  let literals = 0;
  for (const match of source.matchAll(literal)) {
    literals++;
    const command = (match[1] ?? match[2] ?? match[3] ?? '').replace(/\\(.)/g, '$1');
    found.push({
      kind: 'script',
      via: `${name} ${match[1] === undefined ? 'pipe' : 'system()'}`,
      script: { text: command, dynamic: false },
    });
  }
  // Every place that runs a command: more of them than literal commands means one is built at run time.
  const sites = source.match(/\bsystem\s*\(|\|/g)?.length ?? 0;
  if (sites > literals)
    found.push({ kind: 'opaque', via: name, why: 'the awk program runs a command it builds at run time' });
  return found;
}

function editorCommands(name: string, argv: readonly ShellWord[]): OptionExecutedCommand[] {
  for (let index = 1; index < argv.length; index++) {
    const text = argv[index]!.text;
    if (text === '-c' || text === '--cmd' || text === '-S' || text.startsWith('+') || text === '-s')
      return [
        {
          kind: 'opaque',
          via: `${name} ${text.startsWith('+') ? '+' : text}`,
          why: `${name} commands can run programs (:!)`,
        },
      ];
  }
  return [{ kind: 'opaque', via: name, why: `${name} can run any program (:!command)` }];
}
