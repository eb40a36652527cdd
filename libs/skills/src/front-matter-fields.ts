import JSON5 from 'json5';
import { SKILL_PARAMETER_TYPES, type SkillParameter, type SkillTrigger } from '@talon/contracts';
import type { SkillRequirements } from './parsed-skill.js';
import { stringList } from './skill-terms.js';

/** A front-matter field that cannot be understood; the parser turns it into an `invalid_field` rejection. */
export class FieldProblem extends Error {}

type Json = Record<string, unknown>;

function isObject(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** `metadata` as an object: YAML mappings as they are, strings parsed as JSON5. */
export function readMetadata(value: unknown): Json {
  if (value === undefined || value === null) return {};
  if (isObject(value)) return value;
  if (typeof value === 'string') {
    let parsed: unknown;
    try {
      parsed = JSON5.parse(value);
    } catch (error) {
      throw new FieldProblem(`metadata is a string but not valid JSON5: ${(error as Error).message}`);
    }
    if (!isObject(parsed)) throw new FieldProblem('metadata must be an object');
    return parsed;
  }
  throw new FieldProblem('metadata must be an object or a JSON5 string');
}

/**
 * Requirements from `requires` (IronClaw), `metadata.openclaw.requires`, `metadata.clawdbot.requires`
 * or a top-level `clawdbot.requires` (legacy). The first one present wins; `os` may also sit next to
 * `requires` in the openclaw block.
 */
export function readRequirements(data: Json, metadata: Json): SkillRequirements {
  const blocks = [data, metadata['openclaw'], metadata['clawdbot'], data['clawdbot']].filter(isObject);
  const block = blocks.find((candidate) => isObject(candidate['requires']));
  const requires = block && isObject(block['requires']) ? block['requires'] : {};
  const os =
    requires['os'] ?? blocks.map((candidate) => candidate['os']).find((value) => value !== undefined);
  return {
    bins: stringList(requires['bins']),
    anyBins: stringList(requires['anyBins'] ?? requires['any_bins']),
    env: stringList(requires['env']),
    config: stringList(requires['config']),
    os: stringList(os),
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

/**
 * Workflow triggers. Accepted spellings: a list of `{command}`, `{schedule|cron, timezone?}`,
 * `{webhook|event}`, `{manual: true}`, `{type: …, …}`, or plain strings (`/review`, `manual`);
 * or one mapping with `commands`, `schedule(s)`, `webhook(s)`, `manual`.
 */
export function readTriggers(value: unknown): SkillTrigger[] {
  if (value === undefined || value === null) return [];
  const items: unknown[] = Array.isArray(value) ? value : isObject(value) ? expandTriggerMap(value) : [value];
  const triggers: SkillTrigger[] = [];
  for (const item of items) {
    const trigger = readTrigger(item);
    if (!trigger)
      throw new FieldProblem(
        `trigger ${JSON.stringify(item)} is not a command, schedule, webhook or manual trigger`,
      );
    triggers.push(trigger);
  }
  return triggers;
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
