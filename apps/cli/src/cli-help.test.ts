import { describe, expect, it } from '@jest/globals';
import { helpRequest, renderCommandHelp, renderCommandList } from './cli-help.js';

const commands = [
  { name: 'up', summary: 'start Talon', usage: 'Usage: pnpm talon up' },
  { name: 'secret', summary: 'store secrets', usage: 'Usage: pnpm talon secret set <NAME>' },
];

describe('talon help', () => {
  it.each([
    [[], {}],
    [['--help'], {}],
    [['-h'], {}],
    [['help'], {}],
    [['help', 'secret'], { command: 'secret' }],
    [['secret', '--help'], { command: 'secret' }],
    [['secret', 'set', 'X', '-h'], { command: 'secret' }],
    [['secret', 'set', 'X'], undefined],
    [['routines', 'create', '--name', 'help'], undefined],
  ])('%j asks for %j', (args, expected) => {
    expect(helpRequest(args)).toEqual(expected);
  });

  it('lists every command in aligned columns, and one command with its usage and environment', () => {
    const list = renderCommandList(commands);
    expect(list).toMatch(/^ {2}up {6}start Talon$/m);
    expect(list).toMatch(/^ {2}secret {2}store secrets$/m);
    expect(list).toContain('TALON_STATE_DIR');
    const one = renderCommandHelp(commands[1]!);
    expect(one).toMatch(/^store secrets\n\nUsage: pnpm talon secret set <NAME>\n\nEnvironment/);
  });
});
