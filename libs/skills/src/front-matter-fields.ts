import JSON5 from 'json5';
import { SKILL_PARAMETER_TYPES, type SkillParameter, type SkillTrigger } from '@talon/contracts';
import type { SkillRequirements } from './parsed-skill.js';
import { stringList } from './skill-terms.js';

/** A front-matter field that cannot be understood; the parser warns and keeps the raw value in `metadata`. */
export class FieldProblem extends Error {}

type Json = Record<string, unknown>;

function isObject(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * `metadata` as an object: YAML mappings as they are, strings parsed as JSON5. Anything else, or a string that
 * is not JSON5 for an object, gives an empty object and a warning (the skill still loads).
 */
export function readMetadata(value: unknown, warnings: string[]): Json {
  if (value === undefined || value === null) return {};
  if (isObject(value)) return value;
  if (typeof value === 'string') {
    try {
      const parsed: unknown = JSON5.parse(value);
      if (isObject(parsed)) return parsed;
      warnings.push('metadata is a string that is not a JSON5 object; ignored');
    } catch (error) {
      warnings.push(`metadata is a string but not valid JSON5 (${(error as Error).message}); ignored`);
    }
    return {};
  }
  warnings.push(`metadata is ${Array.isArray(value) ? 'a list' : `a ${typeof value}`}, not a mapping; ignored`);
  return {};
}

/** The vendor blocks that carry OpenClaw-style requirements, under `metadata` or at the top level. */
export const REQUIREMENT_BLOCKS = ['openclaw', 'clawdbot', 'moltbot', 'clawdis', 'clawdhub'] as const;

/**
 * Requirements from every place the dialects put them, merged (a requirement stated twice counts once):
 * a top-level `requires`, `metadata.requires`, and `requires` inside `openclaw`, `clawdbot`, `moltbot`,
 * `clawdis` or `clawdhub` blocks (under `metadata` or at the top level). `os` may also sit next to `requires`
 * in a vendor block. Lists are `bins`, `anyBins`, `env`, `config` (configuration keys that must be truthy),
 * `os`, `skills` (other skills that must be available) and `mcp` (MCP servers that must be configured).
 */
export function readRequirements(data: Json, metadata: Json): SkillRequirements {
  const vendor = REQUIREMENT_BLOCKS.flatMap((key) => [metadata[key], data[key]]).filter(isObject);
  const holders = [data, metadata, ...vendor];
  const blocks = holders.map((holder) => holder['requires']).filter(isObject);
  const merged = (read: (block: Json) => unknown) => [
    ...new Set(blocks.flatMap((block) => stringList(read(block)))),
  ];
  const os = [
    ...new Set([...merged((block) => block['os']), ...vendor.flatMap((block) => stringList(block['os']))]),
  ];
  return {
    bins: merged((block) => block['bins']),
    anyBins: merged((block) => block['anyBins'] ?? block['any_bins']),
    env: merged((block) => block['env']),
    config: merged((block) => block['config']),
    os,
    skills: merged((block) => block['skills']),
    mcp: merged((block) => block['mcp'] ?? block['mcpServers'] ?? block['mcp_servers']),
  };
}

const PARAMETER_TYPES = SKILL_PARAMETER_TYPES;

/** Workflow parameters, as a list of objects or a map from name to spec. */
export function readParameters(value: unknown, warnings: string[]): SkillParameter[] {
  if (value === undefined || value === null) return [];
  const entries: Array<[string | undefined, unknown]> = Array.isArray(value)
    ? value.map((item) => [undefined, item])
    : isObject(value)
      ? Object.entries(value)
      : [];
  if (entries.length === 0 && !Array.isArray(value) && !isObject(value))
    throw new FieldProblem('parameters must be a list or a mapping');
  const parameters: SkillParameter[] = [];
  for (const [key, spec] of entries) {
    const item = isObject(spec) ? spec : {};
    const name = String(item['name'] ?? key ?? '').trim();
    if (!/^[A-Za-z_][A-Za-z0-9_]{0,63}$/.test(name))
      throw new FieldProblem(`parameter name "${name}" must be an identifier`);
    const declared = String(item['type'] ?? 'string');
    const type = (PARAMETER_TYPES as readonly string[]).includes(declared)
      ? (declared as SkillParameter['type'])
      : 'string';
    if (type !== declared)
      warnings.push(`parameter "${name}" has unknown type "${declared}"; treated as string`);
    parameters.push({
      name,
      type,
      required: item['required'] === true,
      ...(typeof item['description'] === 'string' ? { description: item['description'] } : {}),
      ...('default' in item ? { default: item['default'] } : {}),
      ...(Array.isArray(item['enum']) ? { enum: item['enum'] as unknown[] } : {}),
    });
  }
  return parameters;
}

/** Triggers as read: the structured ones, plain phrases (activation phrases), and items not understood. */
export interface ReadTriggers {
  triggers: SkillTrigger[];
  /** Plain-text triggers such as ClawHub's `triggers: ["post to mastodon"]`: matched like keywords. */
  phrases: string[];
  /** Items that are neither; kept in `metadata.triggers` by the parser, with a warning. */
  unknown: unknown[];
}

/**
 * Workflow triggers. Accepted spellings: a list of `{command}`, `{schedule|cron, timezone?}`,
 * `{webhook|event}`, `{manual: true}`, `{type: …, …}`, or plain strings (`/review`, `manual`);
 * or one mapping with `commands`, `schedule(s)`, `webhook(s)`, `manual`. Any other string is an activation
 * phrase; any other item is returned in `unknown`. Never throws.
 */
export function readTriggers(value: unknown): ReadTriggers {
  const out: ReadTriggers = { triggers: [], phrases: [], unknown: [] };
  if (value === undefined || value === null) return out;
  const items: unknown[] = Array.isArray(value) ? value : isObject(value) ? expandTriggerMap(value) : [value];
  for (const item of items) {
    const trigger = readTrigger(item);
    if (trigger) out.triggers.push(trigger);
    else if (typeof item === 'string' && item.trim().length > 0 && !item.trim().startsWith('/'))
      out.phrases.push(item.trim());
    else out.unknown.push(item);
  }
  return out;
}

function expandTriggerMap(map: Json): unknown[] {
  const items: unknown[] = [];
  for (const command of stringList(map['commands'] ?? map['command'])) items.push({ command });
  for (const schedule of [map['schedules'], map['schedule']].flat())
    if (schedule !== undefined) items.push(typeof schedule === 'string' ? { schedule } : schedule);
  for (const event of stringList(map['webhooks'] ?? map['webhook'])) items.push({ webhook: event });
  if (map['manual'] === true) items.push('manual');
  if ('type' in map || 'kind' in map) items.push(map);
  return items;
}

function readTrigger(item: unknown): SkillTrigger | undefined {
  if (typeof item === 'string') {
    if (item === 'manual') return { kind: 'manual' };
    if (/^\/[a-z0-9][a-z0-9_-]{0,63}$/i.test(item)) return { kind: 'command', command: item.toLowerCase() };
    return undefined;
  }
  if (!isObject(item)) return undefined;
  const kind = item['type'] ?? item['kind'];
  if (typeof item['command'] === 'string' || kind === 'command') {
    const raw = String(item['command'] ?? item['name'] ?? '');
    const command = raw.startsWith('/') ? raw : `/${raw}`;
    return /^\/[a-z0-9][a-z0-9_-]{0,63}$/i.test(command)
      ? { kind: 'command', command: command.toLowerCase() }
      : undefined;
  }
  const cron = item['schedule'] ?? item['cron'];
  if (typeof cron === 'string' || kind === 'schedule') {
    if (typeof cron !== 'string') return undefined;
    const timezone = item['timezone'] ?? item['tz'];
    return { kind: 'schedule', cron, ...(typeof timezone === 'string' ? { timezone } : {}) };
  }
  const event = item['webhook'] ?? item['event'];
  if (typeof event === 'string' || kind === 'webhook')
    return typeof event === 'string' ? { kind: 'webhook', event } : undefined;
  if (item['manual'] === true || kind === 'manual') return { kind: 'manual' };
  return undefined;
}
