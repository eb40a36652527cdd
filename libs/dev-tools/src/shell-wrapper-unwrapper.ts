import type { ShellWord } from './shell-tokenizer.js';

/** What one wrapper layer hides: the command it runs, a script it parses, or nothing known. */
export type UnwrapStep =
  | { kind: 'exec'; wrapper: string; rest: ShellWord[]; assignments: string[]; argsFromInput: boolean }
  | { kind: 'script'; wrapper: string; script: ShellWord }
  | { kind: 'uncertain'; wrapper: string }
  | { kind: 'none' };

interface OptionSpec {
  /** Short options without a value. */
  flags?: string;
  /** Short options that take a value (attached or next word). */
  valued?: string;
  /** Short options whose value may only be attached (`-i{}`). */
  optionalValued?: string;
  long?: readonly string[];
  longValued?: readonly string[];
  /** Accept `-10`-style numeric options (nice). */
  numeric?: boolean;
}

const SHELLS = new Set(['sh', 'bash', 'dash', 'zsh', 'ksh', 'mksh', 'ash']);
const ASSIGNMENT = /^[A-Za-z_][A-Za-z0-9_]*=/;

const SPECS: Record<string, OptionSpec> = {
  env: {
    flags: 'i0v',
    valued: 'uCP',
    long: ['ignore-environment', 'null', 'debug'],
    longValued: ['unset', 'chdir'],
  },
  time: {
    flags: 'pavq',
    valued: 'fo',
    long: ['portability', 'append', 'verbose', 'quiet'],
    longValued: ['format', 'output'],
  },
  nice: { valued: 'n', longValued: ['adjustment'], numeric: true },
  nohup: {},
  timeout: {
    flags: 'v',
    valued: 'sk',
    long: ['foreground', 'preserve-status', 'verbose'],
    longValued: ['signal', 'kill-after'],
  },
  xargs: {
    flags: '0rtpxo',
    valued: 'adEILnPs',
    optionalValued: 'iel',
    long: ['null', 'no-run-if-empty', 'verbose', 'interactive', 'exit', 'open-tty', 'show-limits'],
    longValued: [
      'arg-file',
      'delimiter',
      'eof',
      'replace',
      'max-lines',
      'max-args',
      'max-procs',
      'max-chars',
      'process-slot-var',
    ],
  },
  command: { flags: 'p' },
  exec: { flags: 'cl', valued: 'a' },
  builtin: {},
  setsid: { flags: 'cfw', long: ['ctty', 'fork', 'wait'] },
  stdbuf: { valued: 'ioe', longValued: ['input', 'output', 'error'] },
  sudo: {
    flags: 'AbEHiKklnPSsV',
    valued: 'CDghpRTUu',
    long: ['askpass', 'background', 'preserve-env', 'set-home', 'login', 'non-interactive', 'stdin', 'shell'],
    longValued: [
      'close-from',
      'chdir',
      'group',
      'host',
      'prompt',
      'chroot',
      'command-timeout',
      'other-user',
      'user',
    ],
  },
  doas: { flags: 'ns', valued: 'uC' },
  strace: {
    flags: 'cCdDfFhiqrtTvVwxyYzZk',
    valued: 'abeEIoOpPsSuUX',
    long: ['follow-forks', 'summary-only', 'summary'],
    longValued: ['trace', 'output', 'signal', 'status', 'string-limit', 'user', 'env'],
  },
  ltrace: { flags: 'bcCfhiLrStTV', valued: 'aAeFlnopsuwx', longValued: ['output', 'library'] },
  ionice: { flags: 'tV', valued: 'cnp' },
  chrt: { flags: 'bfiordamRv', long: ['batch', 'fifo', 'idle', 'other', 'rr', 'reset-on-fork'] },
  taskset: { flags: 'acV', long: ['all-tasks', 'cpu-list'] },
  flock: {
    flags: 'sxunoFh',
    valued: 'wEc',
    long: ['shared', 'exclusive', 'unlock', 'nonblock', 'close', 'no-fork'],
    longValued: ['timeout', 'conflict-exit-code', 'command'],
  },
  watch: {
    flags: 'bdegtxcpr',
    valued: 'nq',
    long: ['beep', 'errexit', 'chgexit', 'no-title', 'exec', 'color', 'precise', 'no-wrap'],
    longValued: ['interval', 'differences', 'equexit'],
  },
  parallel: {
    flags: 'kuvq0',
    valued: 'jdNaS',
    long: ['keep-order', 'ungroup', 'verbose', 'null', 'quote', 'dry-run', 'halt-on-error', 'group'],
    longValued: ['jobs', 'delimiter', 'arg-file', 'sshlogin', 'timeout', 'joblog', 'max-args', 'results'],
  },
};

/** Wrappers that run their operands as one shell command line (`watch ls -l` runs `sh -c "ls -l"`). */
const RUNS_OPERANDS_AS_SCRIPT = new Set(['watch', 'parallel']);

/** Name of the wrapper a word invokes: a bare name or an absolute path; a relative path is a local script. */
export function wrapperNameOf(word: ShellWord): string | undefined {
  if (word.dynamic) return undefined;
  if (word.text.includes('/') && !word.text.startsWith('/')) return undefined;
  return word.text.slice(word.text.lastIndexOf('/') + 1);
}

/** Peels one wrapper layer off `argv`, or says there is none it understands. */
export function unwrapStep(argv: readonly ShellWord[]): UnwrapStep {
  const name = argv[0] ? wrapperNameOf(argv[0]) : undefined;
  if (name === undefined) return { kind: 'none' };
  if (SHELLS.has(name)) return unwrapShell(name, argv);
  if (name === 'eval') {
    const words = argv.slice(1);
    if (words.length === 0) return { kind: 'none' };
    return {
      kind: 'script',
      wrapper: 'eval',
      script: { text: words.map((w) => w.text).join(' '), dynamic: words.some((w) => w.dynamic) },
    };
  }
  const spec = SPECS[name];
  if (!spec) return { kind: 'none' };
  // `command -v x` only looks a name up; nothing runs.
  if (name === 'command' && argv.slice(1).some((w) => /^-[a-zA-Z]*[vV]/.test(w.text)))
    return { kind: 'none' };
  // A wrapper whose options are not understood cannot be shown faithfully: the caller refuses it.
  if (name === 'flock') return unwrapFlock(argv, spec);
  let index = skipOptions(argv, 1, spec);
  if (index === undefined) return { kind: 'uncertain', wrapper: name };
  if (RUNS_OPERANDS_AS_SCRIPT.has(name)) {
    let words = argv.slice(index);
    // parallel: the command template ends where its argument lists start.
    if (name === 'parallel') {
      const end = words.findIndex((word) => /^:::+$|^::::$/.test(word.text));
      if (end >= 0) words = words.slice(0, end);
    }
    if (words.length === 0) return { kind: 'none' };
    return {
      kind: 'script',
      wrapper: name,
      script: { text: words.map((word) => word.text).join(' '), dynamic: words.some((word) => word.dynamic) },
    };
  }
  const assignments: string[] = [];
  if (name === 'env') {
    while (index < argv.length && !argv[index]!.dynamic && ASSIGNMENT.test(argv[index]!.text))
      assignments.push(argv[index++]!.text);
  }
  if (name === 'timeout') index += 1; // the duration
  const rest = argv.slice(index);
  if (name === 'xargs') {
    return {
      kind: 'exec',
      wrapper: 'xargs',
      rest: rest.length > 0 ? rest : [{ text: 'echo', dynamic: false }],
      assignments,
      argsFromInput: true,
    };
  }
  if (rest.length === 0) return { kind: 'none' };
  return { kind: 'exec', wrapper: name, rest, assignments, argsFromInput: false };
}

/** `flock [options] file command…` or `flock [options] file -c "command line"`. */
function unwrapFlock(argv: readonly ShellWord[], spec: OptionSpec): UnwrapStep {
  const script = argv.findIndex(
    (word, position) => position > 0 && (word.text === '-c' || word.text === '--command'),
  );
  if (script > 0) {
    const value = argv[script + 1];
    return value
      ? { kind: 'script', wrapper: 'flock -c', script: value }
      : { kind: 'uncertain', wrapper: 'flock' };
  }
  const index = skipOptions(argv, 1, spec);
  if (index === undefined) return { kind: 'uncertain', wrapper: 'flock' };
  const rest = argv.slice(index + 1); // the lock file, then the command
  if (rest.length === 0) return { kind: 'none' };
  return { kind: 'exec', wrapper: 'flock', rest, assignments: [], argsFromInput: false };
}

function unwrapShell(name: string, argv: readonly ShellWord[]): UnwrapStep {
  let command = false;
  let index = 1;
  while (index < argv.length) {
    const word = argv[index]!;
    if (word.dynamic) break;
    const text = word.text;
    if (text === '--' || text === '-') {
      index += 1;
      break;
    }
    if (text.startsWith('--')) {
      if (text === '--rcfile' || text === '--init-file') index += 2;
      else index += 1;
      continue;
    }
    if (!/^[-+][A-Za-z]+$/.test(text)) break;
    if (text.slice(1).includes('c')) command = true;
    // -o/+o take an option name as the next word.
    index += text.slice(1).includes('o') ? 2 : 1;
  }
  if (!command || index >= argv.length) return { kind: 'none' };
  return { kind: 'script', wrapper: `${name} -c`, script: argv[index]! };
}

/** Index of the first operand after the options of `spec`, or undefined for an option it does not know. */
function skipOptions(argv: readonly ShellWord[], start: number, spec: OptionSpec): number | undefined {
  let index = start;
  while (index < argv.length) {
    const word = argv[index]!;
    const text = word.text;
    if (!text.startsWith('-') || text === '-') return index;
    if (word.dynamic) return undefined;
    if (text === '--') return index + 1;
    if (text.startsWith('--')) {
      const [optionName, value] = splitLong(text.slice(2));
      if (spec.longValued?.includes(optionName)) index += value === undefined ? 2 : 1;
      else if (spec.long?.includes(optionName) && value === undefined) index += 1;
      else return undefined;
      continue;
    }
    if (spec.numeric && /^-\d+$/.test(text)) {
      index += 1;
      continue;
    }
    let consumed = 1;
    for (let position = 1; position < text.length; position += 1) {
      const letter = text[position]!;
      if (spec.flags?.includes(letter)) continue;
      if (spec.optionalValued?.includes(letter)) break;
      if (spec.valued?.includes(letter)) {
        if (position === text.length - 1) consumed = 2;
        break;
      }
      return undefined;
    }
    index += consumed;
  }
  return index;
}

function splitLong(option: string): [string, string | undefined] {
  const equals = option.indexOf('=');
  return equals < 0 ? [option, undefined] : [option.slice(0, equals), option.slice(equals + 1)];
}
