#!/usr/bin/env node
import { artifactsCommand } from './commands/artifacts-command.js';
import { chatCommand } from './commands/chat-command.js';
import { handsCommand } from './commands/hands-command.js';
import { jobsCommand } from './commands/jobs-command.js';
import { remindersCommand } from './commands/reminders-command.js';
import { routinesCommand } from './commands/routines-command.js';
import { secretCommand } from './commands/secret-command.js';
import { mcpServeCommand } from './commands/mcp-serve-command.js';
import { statusCommand } from './commands/status-command.js';
import { upCommand } from './commands/up-command.js';
import { tokenCommand } from './commands/token-command.js';
import { sessionsCommand } from './commands/sessions-command.js';

const USAGE = `Usage: pnpm talon <command>

Commands:
  up        start a private NATS (with authorization) and the four services on embedded defaults
  status    show every service's instances, version and latency
  secret    set (value from stdin) / list / delete stored secrets
  token     create / list / revoke API tokens (operator)
  chat      an interactive session: streaming answers, tool calls as they run, approvals inline
  hands     list / show hands; run, approve, cancel them; activate / pause / resume / delete instances; runs
  jobs      list / show / cancel / follow autonomous jobs
  routines  list (next fire in words and in the routine's timezone) / create / pause / resume / fire / history
  artifacts get the image, audio or binary resource a tool result names (artifact sha256:…)
  reminders list reminders set in chat and the ones delivered, or cancel one
  mcp serve serve Talon's tool catalog as an MCP server over stdio (needs a running Talon)
  sessions  list sessions / cancel <id> (stops a running turn and its tool calls)
  help      this text`;

const print = (line: string) => process.stdout.write(line + '\n');
const commands: Record<string, () => Promise<number>> = {
  up: () => upCommand(print),
  status: () => statusCommand(print),
  chat: () => chatCommand(print),
  secret: () => secretCommand(process.argv.slice(3), print),
  token: () => tokenCommand(process.argv.slice(3), print),
  hands: () => handsCommand(process.argv.slice(3), print),
  jobs: () => jobsCommand(process.argv.slice(3), print),
  routines: () => routinesCommand(process.argv.slice(3), print),
  artifacts: () => artifactsCommand(process.argv.slice(3), print),
  reminders: () => remindersCommand(process.argv.slice(3), print),
  mcp: () =>
    process.argv[3] === 'serve'
      ? mcpServeCommand((line) => process.stderr.write(line + '\n'))
      : commands.help!(),
  sessions: () => sessionsCommand(process.argv.slice(3), print),
  help: async () => {
    print(USAGE);
    return 0;
  },
};

const name = process.argv[2] ?? 'help';
const command = commands[name];
if (!command) {
  print(`Unknown command "${name}".\n\n${USAGE}`);
  process.exit(2);
}
process.exit(await command());
