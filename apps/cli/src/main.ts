#!/usr/bin/env node
import { CLI_COMMANDS } from './cli-commands.js';
import { helpRequest, renderCommandHelp, renderCommandList } from './cli-help.js';

const print = (line: string) => process.stdout.write(line + '\n');
const args = process.argv.slice(2);
const help = helpRequest(args);

if (help) {
  const command =
    help.command === undefined ? undefined : CLI_COMMANDS.find((entry) => entry.name === help.command);
  if (help.command !== undefined && !command) {
    print(`Unknown command "${help.command}".\n\n${renderCommandList(CLI_COMMANDS)}`);
    process.exit(2);
  }
  print(command ? renderCommandHelp(command) : renderCommandList(CLI_COMMANDS));
  process.exit(0);
}
const command = CLI_COMMANDS.find((entry) => entry.name === args[0]);
if (!command) {
  print(`Unknown command "${args[0]}".\n\n${renderCommandList(CLI_COMMANDS)}`);
  process.exit(2);
}
process.exit(await command.run(args.slice(1), print));
