/** One `talon` command as the help lists it. */
export interface CliCommandHelp {
  readonly name: string;
  readonly summary: string;
  /** Its own usage: arguments, flags and the environment it reads. */
  readonly usage: string;
}

/** What the CLI's own environment variables do, under every command's help. */
const ENVIRONMENT = `Environment (every command):
  TALON_STATE_DIR  state directory shared with \`talon up\` (default <checkout>/.talon/state)
  NATS_URL         the bus to use (default: the one \`talon up\` recorded, else nats://127.0.0.1:4222)
  NATS_USER / NATS_PASSWORD  bus credentials (default: the api user \`talon up\` wrote)
  TALON_TOKEN      API token (default: the operator token in the state directory)
  NO_COLOR         plain output on a terminal too (it is always plain when piped)`;

/** `talon --help`: every command with its one-line summary. */
export function renderCommandList(commands: readonly CliCommandHelp[]): string {
  const width = Math.max(...commands.map((command) => command.name.length));
  return [
    'Usage: pnpm talon <command> [arguments]   (pnpm talon <command> --help for its flags)',
    '',
    'Commands:',
    ...commands.map((command) => `  ${command.name.padEnd(width)}  ${command.summary}`),
    '',
    ENVIRONMENT,
  ].join('\n');
}

/** `talon <command> --help`. */
export function renderCommandHelp(command: CliCommandHelp): string {
  return `${command.summary}\n\n${command.usage}\n\n${ENVIRONMENT}`;
}

const HELP_FLAGS = new Set(['--help', '-h', 'help']);

/**
 * Whether the arguments (after `talon`) ask for help, and about what: `{}` for the command list,
 * `{ command }` for one command's usage, undefined when they do not ask. `help` as the first word,
 * `--help` or `-h` anywhere count; `talon secret set X --help` is help, never a secret.
 */
export function helpRequest(args: readonly string[]): { command?: string } | undefined {
  const [first, second] = args;
  if (first === undefined || first === '--help' || first === '-h') return {};
  if (first === 'help') return second === undefined ? {} : { command: second };
  return args.some((arg) => HELP_FLAGS.has(arg) && arg !== 'help') ? { command: first } : undefined;
}
