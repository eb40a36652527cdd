import { SlashCommandError } from './errors/slash-command-error.js';

/** A command typed instead of a chat message; the integrator executes it (no model needed). */
export type SlashCommand =
  | { readonly kind: 'tools'; readonly filter?: string }
  | { readonly kind: 'call'; readonly tool: string; readonly params: Readonly<Record<string, unknown>> }
  | { readonly kind: 'skills'; readonly filter?: string }
  | { readonly kind: 'approvals' }
  | { readonly kind: 'skill'; readonly name: string; readonly message: string }
  | { readonly kind: 'prompt'; readonly server: string; readonly name: string; readonly arguments: string }
  | { readonly kind: 'help' };

/** Usage lines of the slash commands, for `/help` and error messages. */
export const SLASH_COMMAND_USAGE: Readonly<Record<SlashCommand['kind'], string>> = {
  tools: '/tools [filter]             list the tools available now (name or description contains filter)',
  call: '/call <tool> [json params]   run one tool through policy and approvals, e.g. /call echo {"message":"hi"}',
  skills: '/skills [filter]            list the skills (name or description contains filter)',
  approvals: '/approvals                  list the approvals of this session still waiting for a person',
  skill: '/skill <name> <message…>     answer the message with that skill active',
  prompt:
    '/prompt <server>.<prompt> [key=value…]  run a turn with an MCP prompt, e.g. /prompt everything.args-prompt city=Paris',
  help: '/help                       show this list',
};

/** The `/help` text. */
export function slashCommandHelp(): string {
  return ['Commands:', ...Object.values(SLASH_COMMAND_USAGE).map((line) => `  ${line}`)].join('\n');
}

/** Whether a listed entry matches a `/tools` or `/skills` filter: its name or description contains it, ignoring case. */
export function matchesSlashFilter(
  entry: { readonly name: string; readonly description?: string },
  filter: string | undefined,
): boolean {
  if (!filter) return true;
  const needle = filter.toLowerCase();
  return (
    entry.name.toLowerCase().includes(needle) || (entry.description ?? '').toLowerCase().includes(needle)
  );
}

/** Whether the input is meant as a slash command (starts with `/`, after leading spaces). */
export function isSlashCommand(input: string): boolean {
  return input.trimStart().startsWith('/');
}

/**
 * Parses a slash command. Returns `undefined` for ordinary chat text; throws {@link SlashCommandError}
 * for an unknown command or bad arguments, with the usage to follow.
 */
export function parseSlashCommand(input: string): SlashCommand | undefined {
  const text = input.trim();
  if (!text.startsWith('/')) return undefined;
  const match = /^\/(\S*)\s*([\s\S]*)$/.exec(text)!;
  const name = match[1]!.toLowerCase();
  const rest = match[2]!.trim();
  switch (name) {
    case 'tools':
    case 'skills':
      return rest === '' ? { kind: name } : { kind: name, filter: rest };
    case 'approvals':
    case 'help':
      if (rest !== '')
        throw new SlashCommandError(`/${name} takes no arguments. Usage: ${SLASH_COMMAND_USAGE[name]}`, name);
      return { kind: name };
    case 'call':
      return parseCall(rest);
    case 'skill': {
      const skill = /^(\S+)\s+([\s\S]+)$/.exec(rest);
      if (skill === null)
        throw new SlashCommandError(
          `/skill needs a skill name and a message. Usage: ${SLASH_COMMAND_USAGE.skill}`,
          name,
        );
      return { kind: 'skill', name: skill[1]!, message: skill[2]!.trim() };
    }
    case 'prompt': {
      const prompt = /^([A-Za-z0-9][\w-]*)\.(\S+)\s*([\s\S]*)$/.exec(rest);
      if (prompt === null)
        throw new SlashCommandError(
          `/prompt needs <server>.<prompt>. Usage: ${SLASH_COMMAND_USAGE.prompt}`,
          name,
        );
      return { kind: 'prompt', server: prompt[1]!, name: prompt[2]!, arguments: prompt[3]!.trim() };
    }
    default:
      throw new SlashCommandError(`Unknown command "/${name}". ${slashCommandHelp()}`, name);
  }
}

function parseCall(rest: string): SlashCommand {
  const parts = /^(\S+)\s*([\s\S]*)$/.exec(rest);
  if (parts === null)
    throw new SlashCommandError(`/call needs a tool name. Usage: ${SLASH_COMMAND_USAGE.call}`, 'call');
  const tool = parts[1]!;
  const json = parts[2]!.trim();
  if (json === '') return { kind: 'call', tool, params: {} };
  let params: unknown;
  try {
    params = JSON.parse(json);
  } catch (error) {
    throw new SlashCommandError(
      `The params of /call ${tool} are not valid JSON (${(error as Error).message}). Usage: ${SLASH_COMMAND_USAGE.call}`,
      'call',
    );
  }
  if (params === null || typeof params !== 'object' || Array.isArray(params)) {
    throw new SlashCommandError(
      `The params of /call ${tool} must be a JSON object like {"message":"hi"}.`,
      'call',
    );
  }
  return { kind: 'call', tool, params: params as Record<string, unknown> };
}
