import type { ApprovalRequirement } from '@talon/contracts';
import type { ParsedShellCommand, ShellProgram } from './shell-command-parser.js';

/** Programs that only read, run without approval when their arguments stay inside the workspace. */
export const READ_ONLY_PROGRAMS: readonly string[] = [
  'ls',
  'cat',
  'pwd',
  'echo',
  'grep',
  'wc',
  'head',
  'tail',
  'find',
  'git',
];

/** git subcommands that only read. */
export const READ_ONLY_GIT_SUBCOMMANDS: readonly string[] = ['status', 'log', 'diff'];

// find actions that run programs or write and delete files.
const FIND_WRITING_ACTIONS = new Set([
  '-exec',
  '-execdir',
  '-ok',
  '-okdir',
  '-delete',
  '-fprint',
  '-fprint0',
  '-fprintf',
  '-fls',
]);
// git options that write files or run external programs even under a read-only subcommand.
const GIT_WRITING_OPTIONS = /^--(output|ext-diff|textconv|exec-path)(=|$)/;
// Redirections that only discard or duplicate output.
const HARMLESS_REDIRECT_TARGETS = new Set(['/dev/null', '1', '2', '&1', '&2']);

/** The decision with the reasons that forced approval (empty when none is needed). */
export interface ShellApprovalDecision {
  approval: ApprovalRequirement;
  reasons: string[];
  /** Every program the command runs, as a person should read it (`rm (via find -exec)`). */
  programs: string[];
}

/**
 * Decides on the parsed programs, never on the raw text: `env sh -c 'rm -rf x'` is judged as `rm`.
 * A command needs no approval only when every program is on the read-only list, no argument
 * points outside the workspace, nothing is written by redirection and nothing is decided at run time.
 */
export function decideShellApproval(parsed: ParsedShellCommand): ShellApprovalDecision {
  const reasons: string[] = [];
  if (parsed.programs.length === 0) reasons.push('no program found');
  if (parsed.hasSubstitution) reasons.push('command substitution');
  if (parsed.background) reasons.push('background job');
  for (const program of parsed.programs) reasons.push(...programReasons(program));
  const programs = [
    ...new Set(
      parsed.programs.map((program) =>
        program.wrappers.length > 0 && program.unknown === undefined
          ? `${program.program} (via ${program.wrappers.join(' → ')})`
          : program.program,
      ),
    ),
  ];
  return { approval: reasons.length === 0 ? 'never' : 'unless_auto_approved', reasons, programs };
}

function programReasons(program: ShellProgram): string[] {
  const reasons: string[] = [];
  const name = program.program;
  if (program.unknown) return [`${program.via ?? name}: ${program.unknown}`];
  if (program.dynamic) return [`program of ${JSON.stringify(name)} is decided at run time`];
  if (program.via && program.via !== name) reasons.push(`${name} runs through ${program.via}`);
  if (!READ_ONLY_PROGRAMS.includes(name)) return [...reasons, `${name} is not a read-only program`];
  if (program.dynamicArgs) reasons.push(`${name} has arguments decided at run time`);
  if (program.assignments.length > 0) reasons.push(`${name} runs with environment assignments`);
  if (program.argsFromInput) reasons.push(`${name} receives arguments from xargs`);
  for (const redirect of program.redirects) {
    const writes = redirect.operator.includes('>');
    if (
      redirect.dynamic ||
      (writes && !HARMLESS_REDIRECT_TARGETS.has(redirect.target)) ||
      (!writes && leavesWorkspace(redirect.target))
    ) {
      reasons.push(`${name} redirects ${redirect.operator} ${redirect.target}`);
    }
  }
  const args = program.argv.slice(1);
  const outside = args.find(leavesWorkspace);
  if (outside !== undefined)
    reasons.push(`${name} argument ${JSON.stringify(outside)} may point outside the workspace`);
  if (name === 'find') {
    const action = args.find((arg) => FIND_WRITING_ACTIONS.has(arg));
    if (action) reasons.push(`find ${action} runs or writes`);
  }
  if (name === 'git') {
    if (!READ_ONLY_GIT_SUBCOMMANDS.includes(args[0] ?? ''))
      reasons.push(`git ${args[0] ?? ''} is not read-only`);
    const option = args.find((arg) => GIT_WRITING_OPTIONS.test(arg));
    if (option) reasons.push(`git option ${option} writes or runs programs`);
  }
  return reasons;
}

/** Absolute paths, home references, `..` segments and globs that can match `..` may reach outside the workspace. */
function leavesWorkspace(arg: string): boolean {
  // Also catches option values: `--file=/etc/x`, `-f/etc/x`.
  if (/^(-[A-Za-z]*|--[^=]*=)?[/~]/.test(arg)) return true;
  const segments = arg.split(/[/=]/);
  if (segments.includes('..')) return true;
  // A glob segment starting with a dot or a bracket (`.*`, `.?`, `[.]*`) can match `..`.
  return segments.some((segment) => /[*?[]/.test(segment) && /^[.[]/.test(segment));
}
