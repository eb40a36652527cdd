import type {
  HandAgent,
  HandMetric,
  HandRequirement,
  HandSetting,
  HandSettingOption,
} from '@talon/contracts';
import { HandFieldProblem, isTable, type TomlTable } from './toml-table.js';

const REQUIREMENT_KINDS: Readonly<Record<string, HandRequirement['kind']>> = {
  binary: 'binary',
  bin: 'binary',
  env_var: 'env_var',
  env: 'env_var',
  api_key: 'api_key',
};
const SETTING_KINDS = ['select', 'text', 'toggle'] as const;
const METRIC_FORMATS = ['number', 'text', 'duration', 'bytes', 'percent', 'date'] as const;
const NAME = /^[A-Za-z0-9_.+-]{1,128}$/;

/** `[[requires]]`: binary / env_var / api_key with a name, optional flag and install hints. */
export function readRequirements(tables: TomlTable[]): HandRequirement[] {
  return tables.map((table) => {
    const kindText = table.string(['requirement_type', 'type', 'kind'], true)!;
    const kind = REQUIREMENT_KINDS[kindText.toLowerCase()];
    if (!kind)
      throw new HandFieldProblem(
        'invalid_field',
        `"${table.path}.requirement_type" must be binary, env_var or api_key (got "${kindText}")`,
      );
    const name = table.string(['check_value', 'name', 'value', 'key'], true)!;
    if (!NAME.test(name))
      throw new HandFieldProblem(
        'invalid_field',
        `"${table.path}" names "${name}", which is not a binary or variable name`,
      );
    const label = table.string(['label', 'description']);
    const install = readInstallHints(table);
    const optional = table.boolean('optional') ?? false;
    table.finish();
    return {
      kind,
      name,
      ...(label ? { label } : {}),
      optional,
      ...(install ? { install } : {}),
    };
  });
}

function readInstallHints(table: TomlTable): Record<string, string> | undefined {
  const found = table.raw(['install', 'install_hint']);
  if (!found) return undefined;
  const [key, value] = found;
  if (typeof value === 'string') return { any: value };
  if (!isTable(value) || !Object.values(value).every((hint) => typeof hint === 'string'))
    throw new HandFieldProblem(
      'invalid_field',
      `"${table.path}.${key}" must be a string or a table of strings`,
    );
  return value as Record<string, string>;
}

/** `[[settings]]`: select (with options), text and toggle; a default outside its options is refused. */
export function readSettings(tables: TomlTable[]): HandSetting[] {
  const seen = new Set<string>();
  return tables.map((table) => {
    const key = table.string('key', true)!;
    if (!/^[a-z][a-z0-9_]{0,63}$/.test(key))
      throw new HandFieldProblem('invalid_setting', `setting key "${key}" must match ^[a-z][a-z0-9_]{0,63}$`);
    if (seen.has(key)) throw new HandFieldProblem('invalid_setting', `setting "${key}" is declared twice`);
    seen.add(key);
    const kindText = (table.string(['setting_type', 'type', 'kind']) ?? 'text').toLowerCase();
    const kind = SETTING_KINDS.find((candidate) => candidate === kindText);
    if (!kind)
      throw new HandFieldProblem(
        'invalid_setting',
        `setting "${key}" has type "${kindText}"; use select, text or toggle`,
      );
    const options = readOptions(table, key);
    if (kind === 'select' && options.length === 0)
      throw new HandFieldProblem('invalid_setting', `select setting "${key}" needs at least one option`);
    const found = table.raw('default');
    const fallback = found?.[1];
    if (fallback !== undefined) {
      const problem = settingValueProblem({ key, kind, options }, fallback);
      if (problem) throw new HandFieldProblem('invalid_setting', `default of ${problem}`);
    }
    const label = table.string(['label', 'name']) ?? key;
    const description = table.string('description');
    table.finish();
    return {
      key,
      label,
      ...(description ? { description } : {}),
      kind,
      options,
      ...(fallback !== undefined ? { default: fallback as string | boolean } : {}),
    };
  });
}

function readOptions(table: TomlTable, key: string): HandSettingOption[] {
  const found = table.raw('options');
  if (!found) return [];
  const items = found[1];
  if (!Array.isArray(items))
    throw new HandFieldProblem('invalid_setting', `options of setting "${key}" must be a list`);
  const options = items.map((item): HandSettingOption => {
    if (typeof item === 'string') return { value: item, label: item };
    if (isTable(item) && typeof item['value'] === 'string')
      return {
        value: item['value'],
        label: typeof item['label'] === 'string' ? item['label'] : item['value'],
      };
    throw new HandFieldProblem(
      'invalid_setting',
      `an option of setting "${key}" is neither a string nor { value, label }`,
    );
  });
  if (new Set(options.map((option) => option.value)).size !== options.length)
    throw new HandFieldProblem('invalid_setting', `setting "${key}" lists an option twice`);
  return options;
}

/** Why a value does not fit a setting ("setting "depth" must be one of quick, deep"), or undefined. */
export function settingValueProblem(
  setting: Pick<HandSetting, 'key' | 'kind' | 'options'>,
  value: unknown,
): string | undefined {
  switch (setting.kind) {
    case 'toggle':
      return typeof value === 'boolean' ? undefined : `setting "${setting.key}" must be true or false`;
    case 'text':
      if (typeof value !== 'string') return `setting "${setting.key}" must be a string`;
      return value.length > 4096 ? `setting "${setting.key}" must be at most 4096 characters` : undefined;
    case 'select':
      return typeof value === 'string' && setting.options.some((option) => option.value === value)
        ? undefined
        : `setting "${setting.key}" must be one of ${setting.options.map((option) => option.value).join(', ')} (got ${JSON.stringify(value)})`;
  }
}

/** `[agent]`: model settings and the system prompt (built from the description when absent). */
export function readAgent(table: TomlTable | undefined, description: string): HandAgent {
  if (!table) return { systemPrompt: description };
  const agent: HandAgent = { systemPrompt: table.string(['system_prompt', 'prompt']) ?? description };
  const provider = table.string('provider');
  const model = table.string('model');
  const temperature = table.number('temperature');
  const maxTokens = table.integer('max_tokens', 1);
  const maxIterations = table.integer('max_iterations', 1);
  // Descriptive fields of OpenFang's agent table, read so they are not reported as unknown.
  table.string(['name', 'description', 'module']);
  table.finish();
  if (temperature !== undefined && (temperature < 0 || temperature > 2))
    throw new HandFieldProblem('invalid_field', `"${table.path}.temperature" must be between 0 and 2`);
  return {
    ...agent,
    ...(provider && provider !== 'default' ? { provider } : {}),
    ...(model && model !== 'default' ? { model } : {}),
    ...(temperature !== undefined ? { temperature } : {}),
    ...(maxTokens !== undefined ? { maxTokens } : {}),
    ...(maxIterations !== undefined ? { maxIterations } : {}),
  };
}

/** `[[dashboard.metrics]]`: label, memory key, format. */
export function readMetrics(tables: TomlTable[]): HandMetric[] {
  return tables.map((table) => {
    const label = table.string('label', true)!;
    const memoryKey = table.string('memory_key', true)!;
    const formatText = (table.string('format') ?? 'number').toLowerCase();
    const format = METRIC_FORMATS.find((candidate) => candidate === formatText);
    if (!format)
      throw new HandFieldProblem(
        'invalid_field',
        `"${table.path}.format" must be one of ${METRIC_FORMATS.join(', ')}`,
      );
    table.finish();
    return { label, memoryKey, format };
  });
}
