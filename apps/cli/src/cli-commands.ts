import { ARTIFACTS_USAGE, artifactsCommand } from './commands/artifacts-command.js';
import { chatCommand } from './commands/chat-command.js';
import { HANDS_USAGE, handsCommand } from './commands/hands-command.js';
import { JOBS_USAGE, jobsCommand } from './commands/jobs-command.js';
import { MCP_DEFINITIONS_USAGE, mcpDefinitionsCommand } from './commands/mcp-definitions-command.js';
import { REMINDERS_USAGE, remindersCommand } from './commands/reminders-command.js';
import { ROUTINES_USAGE, routinesCommand } from './commands/routines-command.js';
import { SECRET_USAGE, secretCommand } from './commands/secret-command.js';
import { SESSIONS_USAGE, sessionsCommand } from './commands/sessions-command.js';
import { statusCommand } from './commands/status-command.js';
import { TOKEN_USAGE, tokenCommand } from './commands/token-command.js';
import { UP_USAGE } from './commands/up-usage.js';
import type { CliCommandHelp } from './cli-help.js';

/** A `talon` command: its help and what runs it (the exit code is the process's). */
export interface CliCommand extends CliCommandHelp {
  run(args: readonly string[], print: (line: string) => void): Promise<number>;
}

const MCP_USAGE = `Usage:
  pnpm talon mcp serve                          speak MCP on stdin/stdout (configure it as a stdio server
                                                in your MCP client); logs go to stderr
${MCP_DEFINITIONS_USAGE}
  Needs a running Talon (\`pnpm talon up\`).`;

/** Every command, in the order `talon --help` lists them. */
export const CLI_COMMANDS: readonly CliCommand[] = [
  {
    name: 'up',
    summary: 'start a private NATS (with authorization) and the four services on embedded defaults',
    usage: UP_USAGE,
    // Loaded when run: `up` and `mcp serve` bring the service runtime and the MCP SDK, which every other
    // command would otherwise load for nothing (a second of CPU per call of the CLI).
    run: async (_args, print) => (await import('./commands/up-command.js')).upCommand(print),
  },
  {
    name: 'status',
    summary: "show every service's instances, version and latency",
    usage: 'Usage: pnpm talon status\n  Exits 1 when a service does not answer.',
    run: (_args, print) => statusCommand(print),
  },
  {
    name: 'chat',
    summary: 'an interactive session: streaming answers, tool calls as they run, approvals inline',
    usage: `Usage: pnpm talon chat
  Type a message, or a slash command (/help lists them: /tools [filter], /skills [filter], /approvals,
  /call <tool> {json}, /skill, /prompt). Ctrl-C cancels a running turn, leaves an approval prompt with
  the approval pending, and at the prompt leaves; /exit leaves too.`,
    run: (_args, print) => chatCommand(print),
  },
  {
    name: 'secret',
    summary: 'set (typed hidden, or from stdin) / list / delete stored secrets',
    usage: SECRET_USAGE,
    run: (args, print) => secretCommand(args, print),
  },
  {
    name: 'token',
    summary: 'create / list / revoke API tokens (operator)',
    usage: TOKEN_USAGE,
    run: (args, print) => tokenCommand(args, print),
  },
  {
    name: 'hands',
    summary:
      'list / show hands; run, approve, cancel them; activate / pause / resume / delete instances; runs',
    usage: HANDS_USAGE,
    run: (args, print) => handsCommand(args, print),
  },
  {
    name: 'jobs',
    summary: 'list / show / cancel / follow autonomous jobs',
    usage: JOBS_USAGE,
    run: (args, print) => jobsCommand(args, print),
  },
  {
    name: 'routines',
    summary:
      "list (next fire in words and in the routine's timezone) / create / pause / resume / fire / history",
    usage: ROUTINES_USAGE,
    run: (args, print) => routinesCommand(args, print),
  },
  {
    name: 'artifacts',
    summary: 'get the image, audio or binary resource a tool result names (artifact sha256:…)',
    usage: ARTIFACTS_USAGE,
    run: (args, print) => artifactsCommand(args, print),
  },
  {
    name: 'reminders',
    summary: 'list reminders set in chat and the ones delivered, or cancel one',
    usage: REMINDERS_USAGE,
    run: (args, print) => remindersCommand(args, print),
  },
  {
    name: 'mcp',
    summary:
      "serve Talon's tool catalog over stdio; list servers (source file or api); add / remove shared ones",
    usage: MCP_USAGE,
    run: async (args, print) => {
      if (args[0] === 'serve')
        return (await import('./commands/mcp-serve-command.js')).mcpServeCommand((line) =>
          process.stderr.write(line + '\n'),
        );
      if (args[0] === 'list' || args[0] === 'add' || args[0] === 'remove')
        return mcpDefinitionsCommand(args, print, MCP_USAGE);
      print(MCP_USAGE);
      return 2;
    },
  },
  {
    name: 'sessions',
    summary: 'list sessions / cancel <id> (stops a running turn and its tool calls)',
    usage: SESSIONS_USAGE,
    run: (args, print) => sessionsCommand(args, print),
  },
];
