import { SHELL_REFUSAL_REASONS, ShellCommandRefusedError } from './shell-command-refused-error.js';
import { LINE_BREAKS, ShellTokenizer, type ShellToken, type ShellWord } from './shell-tokenizer.js';
import { optionExecutedCommands } from './option-executed-commands.js';
import { unwrapStep } from './shell-wrapper-unwrapper.js';

/** A redirection attached to one program. */
export interface ShellRedirect {
  operator: string;
  fd?: string;
  target: string;
  dynamic: boolean;
}

/** One program the command line will really run, after every wrapper is peeled off. */
export interface ShellProgram {
  /** The program as written after unwrapping (`rm`, `/bin/rm`, `./build.sh`). */
  program: string;
  /** Its arguments, `argv[0]` being the program. */
  argv: string[];
  /** Wrappers around it, outermost first (`env`, `sh -c`, `xargs`, …). */
  wrappers: string[];
  /** `NAME=value` assignments given to it (prefix or through `env`). */
  assignments: string[];
  redirects: ShellRedirect[];
  /** The program name is only known at run time (`$CMD`, `$(…)`, a glob). Globs in arguments stay in `argv` as written. */
  dynamic: boolean;
  /** Some argument is only known at run time. */
  dynamicArgs: boolean;
  /** Runs inside a command or process substitution. */
  fromSubstitution: boolean;
  /** Receives more arguments from its input at run time (`xargs`). */
  argsFromInput: boolean;
  /** The option or script of another program that runs this one (`tar --to-command`, `find -exec`). */
  via?: string;
  /** Set when what runs cannot be read from the command line: why (a git alias, `vim -c`, awk `system(x)`). */
  unknown?: string;
}

/** What a command line runs, for an approval decision. */
export interface ParsedShellCommand {
  programs: ShellProgram[];
  /** Every wrapper seen, in order of first appearance. */
  wrappers: string[];
  /** Control operators between programs (`|`, `&&`, `||`, `;`, `&`, …). */
  operators: string[];
  /** A command or process substitution appears anywhere. */
  hasSubstitution: boolean;
  /** A parameter expansion or substitution appears anywhere. */
  hasExpansion: boolean;
  /** Something runs in the background (`&`). */
  background: boolean;
}

/** Longest command accepted, in characters. */
export const MAX_SHELL_COMMAND_LENGTH = 16_384;
/** Deepest nesting of `sh -c`, `eval` and substitutions that is followed before refusing. */
export const MAX_SHELL_NESTING = 8;

// Words that start or end compound commands; the program is the word after them.
const RESERVED_PREFIXES = new Set([
  '!',
  '{',
  '}',
  'if',
  'then',
  'else',
  'elif',
  'fi',
  'do',
  'done',
  'while',
  'until',
  'esac',
]);
const ASSIGNMENT = /^[A-Za-z_][A-Za-z0-9_]*=/;
// eslint-disable-next-line no-control-regex
const CONTROL_CHARACTERS = /[\u0000-\u0008\u000e-\u001f\u007f]/;
// Zero-width and bidirectional-override characters can make the text an approver reads differ
// from what the shell runs ("Trojan Source").
const INVISIBLE_CHARACTERS = /[\u200b-\u200f\u202a-\u202e\u2060-\u2069\ufeff]/;

/**
 * Parses a command line into the programs it will run. Hidden line breaks are refused before
 * anything else, because a shell would run what follows them as a separate command that an
 * approver reading one line might not see.
 */
export function parseShellCommand(command: string): ParsedShellCommand {
  if (typeof command !== 'string' || command.trim().length === 0) {
    throw new ShellCommandRefusedError(SHELL_REFUSAL_REASONS.EMPTY, 'the command is empty');
  }
  if (command.length > MAX_SHELL_COMMAND_LENGTH) {
    throw new ShellCommandRefusedError(
      SHELL_REFUSAL_REASONS.TOO_LONG,
      `the command is longer than ${MAX_SHELL_COMMAND_LENGTH} characters`,
    );
  }
  const result: ParsedShellCommand = {
    programs: [],
    wrappers: [],
    operators: [],
    hasSubstitution: false,
    hasExpansion: false,
    background: false,
  };
  parseInto(command, result, { wrappers: [], assignments: [], redirects: [], fromSubstitution: false }, 0);
  return result;
}

/** What an outer layer passes to the programs of the script it runs. */
interface Inherited {
  wrappers: string[];
  /** Assignments made by an outer `env` or prefix apply to every inner program. */
  assignments: string[];
  /** Redirections of an outer `sh -c '…' > file` apply to every inner program. */
  redirects: ShellRedirect[];
  fromSubstitution: boolean;
}

function parseInto(script: string, result: ParsedShellCommand, inherited: Inherited, depth: number): void {
  if (depth > MAX_SHELL_NESTING) {
    throw new ShellCommandRefusedError(
      SHELL_REFUSAL_REASONS.TOO_DEEP,
      `wrappers and substitutions nest deeper than ${MAX_SHELL_NESTING}`,
    );
  }
  if (LINE_BREAKS.test(script))
    throw new ShellCommandRefusedError(SHELL_REFUSAL_REASONS.NEWLINE, 'it contains a line break');
  if (CONTROL_CHARACTERS.test(script))
    throw new ShellCommandRefusedError(
      SHELL_REFUSAL_REASONS.CONTROL_CHARACTER,
      'it contains a control character',
    );
  if (INVISIBLE_CHARACTERS.test(script)) {
    throw new ShellCommandRefusedError(
      SHELL_REFUSAL_REASONS.INVISIBLE_CHARACTER,
      'it contains an invisible or text-direction character',
    );
  }
  const tokenized = new ShellTokenizer(script).tokenize();
  result.hasExpansion ||= tokenized.hasExpansion;
  result.hasSubstitution ||= tokenized.substitutions.length > 0 || tokenized.opaqueSubstitution;
  for (const simple of splitSimpleCommands(tokenized.tokens, result))
    addProgram(simple, result, inherited, depth);
  for (const body of tokenized.substitutions) {
    parseInto(
      body,
      result,
      { wrappers: inherited.wrappers, assignments: [], redirects: [], fromSubstitution: true },
      depth + 1,
    );
  }
}

interface SimpleCommand {
  words: ShellWord[];
  redirects: ShellRedirect[];
}

function splitSimpleCommands(tokens: readonly ShellToken[], result: ParsedShellCommand): SimpleCommand[] {
  const commands: SimpleCommand[] = [];
  let current: SimpleCommand = { words: [], redirects: [] };
  for (let index = 0; index < tokens.length; index += 1) {
    const token = tokens[index]!;
    if (token.kind === 'operator') {
      if (token.operator !== '(' && token.operator !== ')') result.operators.push(token.operator);
      if (token.operator === '&') result.background = true;
      commands.push(current);
      current = { words: [], redirects: [] };
    } else if (token.kind === 'redirect') {
      const next = tokens[index + 1];
      const target = next?.kind === 'word' ? next.word : { text: '', dynamic: false };
      if (next?.kind === 'word') index += 1;
      current.redirects.push({
        operator: token.operator,
        ...(token.fd === undefined ? {} : { fd: token.fd }),
        target: target.text,
        dynamic: target.dynamic,
      });
    } else {
      current.words.push(token.word);
    }
  }
  commands.push(current);
  return commands;
}

function addProgram(
  simple: SimpleCommand,
  result: ParsedShellCommand,
  inherited: Inherited,
  depth: number,
): void {
  let words = simple.words;
  while (words.length > 0 && !words[0]!.dynamic && RESERVED_PREFIXES.has(words[0]!.text))
    words = words.slice(1);
  const assignments = [...inherited.assignments];
  while (words.length > 0 && !words[0]!.dynamic && ASSIGNMENT.test(words[0]!.text)) {
    assignments.push(words[0]!.text);
    words = words.slice(1);
  }
  const redirects = [...inherited.redirects, ...simple.redirects];
  const wrappers = [...inherited.wrappers];
  const fromSubstitution = inherited.fromSubstitution;
  if (words.length === 0) {
    // Only assignments or redirections: nothing runs, but a redirection still writes or reads a file.
    if (simple.redirects.length > 0)
      result.programs.push(
        programOf([], { wrappers, assignments, redirects, fromSubstitution, argsFromInput: false }),
      );
    return;
  }
  let argsFromInput = false;
  for (let layer = 0; ; layer += 1) {
    if (layer > MAX_SHELL_NESTING) {
      throw new ShellCommandRefusedError(
        SHELL_REFUSAL_REASONS.TOO_DEEP,
        `wrappers nest deeper than ${MAX_SHELL_NESTING}`,
      );
    }
    const step = unwrapStep(words);
    if (step.kind === 'none') break;
    if (step.kind === 'uncertain') {
      throw new ShellCommandRefusedError(
        SHELL_REFUSAL_REASONS.UNCERTAIN,
        `${step.wrapper} is given an option this parser does not know, so the program it runs cannot be shown`,
      );
    }
    if (step.kind === 'script' && step.script.dynamic) {
      // The script is only known at run time: report the shell itself as an unknown program.
      result.programs.push(
        programOf(words, { wrappers, assignments, redirects, fromSubstitution, argsFromInput }, true),
      );
      return;
    }
    noteWrapper(result, step.wrapper);
    wrappers.push(step.wrapper);
    if (step.kind === 'script') {
      parseInto(step.script.text, result, { wrappers, assignments, redirects, fromSubstitution }, depth + 1);
      return;
    }
    assignments.push(...step.assignments);
    argsFromInput ||= step.argsFromInput;
    words = step.rest;
  }
  result.programs.push(
    programOf(words, { wrappers, assignments, redirects, fromSubstitution, argsFromInput }),
  );
  addOptionExecuted(words, result, { wrappers, assignments, redirects: [], fromSubstitution }, depth);
}

/** The programs a program runs through its options or script language, each listed as a program of its own. */
function addOptionExecuted(
  words: readonly ShellWord[],
  result: ParsedShellCommand,
  inherited: Inherited,
  depth: number,
): void {
  for (const command of optionExecutedCommands(words)) {
    const wrappers = [...inherited.wrappers, command.via];
    noteWrapper(result, command.via);
    const nested = { ...inherited, wrappers };
    if (command.kind === 'opaque') {
      result.programs.push({
        ...programOf([{ text: command.via, dynamic: false }], { ...nested, argsFromInput: false }, true),
        via: command.via,
        unknown: command.why,
      });
      continue;
    }
    const before = result.programs.length;
    if (command.kind === 'argv')
      addProgram({ words: command.argv, redirects: [] }, result, nested, depth + 1);
    else if (command.script.dynamic)
      result.programs.push({
        ...programOf([command.script], { ...nested, argsFromInput: false }, true),
        unknown: `the command of ${command.via} is decided at run time`,
      });
    else parseInto(command.script.text, result, nested, depth + 1);
    for (const program of result.programs.slice(before)) program.via ??= command.via;
  }
}

function programOf(
  words: readonly ShellWord[],
  fields: Omit<ShellProgram, 'program' | 'argv' | 'dynamic' | 'dynamicArgs'>,
  scriptUnknown = false,
): ShellProgram {
  if (words.length === 0) return { program: ':', argv: [':'], dynamic: false, dynamicArgs: false, ...fields };
  return {
    program: words[0]!.text,
    argv: words.map((word) => word.text),
    dynamic: scriptUnknown || words[0]!.dynamic || words[0]!.glob === true,
    dynamicArgs: scriptUnknown || words.slice(1).some((word) => word.dynamic),
    ...fields,
  };
}

function noteWrapper(result: ParsedShellCommand, wrapper: string): void {
  if (!result.wrappers.includes(wrapper)) result.wrappers.push(wrapper);
}
