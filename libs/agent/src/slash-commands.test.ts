import { describe, expect, it } from '@jest/globals';
import { SlashCommandError } from './errors/slash-command-error.js';
import { isSlashCommand, matchesSlashFilter, parseSlashCommand, slashCommandHelp } from './slash-commands.js';

describe('parseSlashCommand', () => {
  it('parses every command', () => {
    expect(parseSlashCommand('/tools')).toEqual({ kind: 'tools' });
    expect(parseSlashCommand('  /skills  ')).toEqual({ kind: 'skills' });
    expect(parseSlashCommand('/HELP')).toEqual({ kind: 'help' });
    expect(parseSlashCommand('/tools  file ')).toEqual({ kind: 'tools', filter: 'file' });
    expect(parseSlashCommand('/skills review')).toEqual({ kind: 'skills', filter: 'review' });
    expect(parseSlashCommand('/approvals')).toEqual({ kind: 'approvals' });
    expect(parseSlashCommand('/call echo {"text": "hi there"}')).toEqual({
      kind: 'call',
      tool: 'echo',
      params: { text: 'hi there' },
    });
    expect(parseSlashCommand('/call time')).toEqual({ kind: 'call', tool: 'time', params: {} });
    expect(parseSlashCommand('/skill ward-round summarise\nbed 4 and 5')).toEqual({
      kind: 'skill',
      name: 'ward-round',
      message: 'summarise\nbed 4 and 5',
    });
  });

  it('leaves chat text alone', () => {
    expect(parseSlashCommand('hello /tools')).toBeUndefined();
    expect(isSlashCommand('hello')).toBe(false);
    expect(isSlashCommand(' /x')).toBe(true);
  });

  it.each([
    ['/deploy now', 'UNKNOWN_METHOD', /Unknown command "\/deploy"[\s\S]*\/call <tool>/],
    ['/', 'UNKNOWN_METHOD', /Unknown command/],
    ['/call', 'SCHEMA_VIOLATION', /needs a tool name/],
    ['/call echo {text: hi}', 'SCHEMA_VIOLATION', /not valid JSON/],
    ['/call echo [1,2]', 'SCHEMA_VIOLATION', /must be a JSON object/],
    ['/call echo null', 'SCHEMA_VIOLATION', /must be a JSON object/],
    ['/skill only-name', 'SCHEMA_VIOLATION', /needs a skill name and a message/],
    ['/approvals extra', 'SCHEMA_VIOLATION', /takes no arguments/],
    ['/help me', 'SCHEMA_VIOLATION', /takes no arguments/],
  ])('refuses %j helpfully', (input, code, message) => {
    let caught: unknown;
    try {
      parseSlashCommand(input);
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(SlashCommandError);
    expect(caught).toMatchObject({ code, message: expect.stringMatching(message) });
  });

  it('lists every command in the help', () => {
    const help = slashCommandHelp();
    for (const command of ['/tools', '/call', '/skills', '/skill', '/approvals', '/help'])
      expect(help).toContain(command);
    // The example in the help runs as written: echo takes `message`.
    const example = /e\.g\. (\/call .*)$/m.exec(help)![1]!;
    expect(parseSlashCommand(example)).toEqual({ kind: 'call', tool: 'echo', params: { message: 'hi' } });
  });

  it('filters listings by name or description, ignoring case', () => {
    const entry = { name: 'read_file', description: 'Reads a FILE from the workspace' };
    expect(matchesSlashFilter(entry, undefined)).toBe(true);
    expect(matchesSlashFilter(entry, 'READ')).toBe(true);
    expect(matchesSlashFilter(entry, 'workspace')).toBe(true);
    expect(matchesSlashFilter(entry, 'shell')).toBe(false);
  });

  it('parses /prompt <server>.<prompt> with its key=value arguments kept for the prompt', () => {
    expect(parseSlashCommand('/prompt everything.args-prompt city=Paris state=TX')).toEqual({
      kind: 'prompt',
      server: 'everything',
      name: 'args-prompt',
      arguments: 'city=Paris state=TX',
    });
    expect(() => parseSlashCommand('/prompt nodot')).toThrow(/server>\.<prompt>/);
  });
});
