import { TOOL_EFFECTS, type HandTriggers, type HandWorkflowStep, type ToolEffect } from '@talon/contracts';
import { guardPattern } from '@talon/skills';
import { readAgent, readMetrics, readRequirements, readSettings } from './hand-sections.js';
import type { HandDraft } from './openfang-dialect.js';
import { readScheduleValue, type HandSchedule } from './hand-schedule.js';
import { HandFieldProblem, type TomlTable } from './toml-table.js';

/**
 * ZCLAW's dialect: a `[hand]` table (`name`, `version`, `type`, `description`, `requires_approval` /
 * `needs_approval`, `timeout` in seconds, `max_concurrent`, `tags`) with `[hand.triggers]` (+
 * `[[hand.triggers.events]]`), `[hand.permissions]` (tools, effects), `[hand.rate_limit]`, `[hand.audit]`
 * and `[[hand.workflow]]`. Talon also reads `[hand.agent]`, `[[hand.settings]]`, `[[hand.requires]]` and
 * `[[hand.metrics]]` in the same shapes as the OpenFang dialect.
 */
export function readZclawHand(hand: TomlTable): HandDraft {
  const name = hand.string('name', true)!;
  const id = hand.string('id') ?? name;
  const description = hand.string('description', true)!;
  const permissions = hand.table('permissions');
  const tools = permissions?.strings(['tools', 'allowed_tools']) ?? [];
  const effects = readEffects(permissions);
  permissions?.finish();
  const timeoutSeconds = hand.integer(['timeout', 'timeout_secs'], 1);
  const maxConcurrent = hand.integer('max_concurrent', 1);
  const category = hand.string(['type', 'category']);
  const icon = hand.string('icon');
  const rateLimit = readRateLimit(hand.table('rate_limit'));
  const audit = readAudit(hand.table('audit'));
  const workflow = readWorkflow(hand.tables('workflow'));
  return {
    id,
    name: hand.string('display_name') ?? name,
    version: hand.string('version') ?? '1.0.0',
    description,
    dialect: 'zclaw',
    system: false,
    ...(category ? { category } : {}),
    ...(icon ? { icon } : {}),
    tags: hand.strings('tags'),
    tools,
    effects,
    skills: hand.strings('skills'),
    mcpServers: hand.strings('mcp_servers'),
    requiresApproval: hand.boolean(['requires_approval', 'needs_approval']) ?? false,
    ...(timeoutSeconds !== undefined ? { timeoutMs: timeoutSeconds * 1000 } : {}),
    ...(maxConcurrent !== undefined ? { maxConcurrent } : {}),
    ...(rateLimit ? { rateLimit } : {}),
    ...(audit ? { audit } : {}),
    requires: readRequirements(hand.tables('requires')),
    settings: readSettings(hand.tables('settings')),
    agent: readAgent(hand.table('agent'), workflowPrompt(description, workflow)),
    triggers: readTriggers(hand.table('triggers')),
    workflow,
    metrics: readMetrics(hand.tables('metrics')),
  };
}

function readEffects(permissions: TomlTable | undefined): ToolEffect[] {
  const effects = permissions?.strings('effects') ?? [];
  const unknown = effects.find((effect) => !(TOOL_EFFECTS as readonly string[]).includes(effect));
  if (unknown)
    throw new HandFieldProblem(
      'invalid_field',
      `"hand.permissions.effects" names "${unknown}"; effects are ${TOOL_EFFECTS.join(', ')}`,
    );
  return effects as ToolEffect[];
}

function readTriggers(table: TomlTable | undefined): HandTriggers {
  if (!table) return { manual: true, webhook: false, events: [] };
  const manual = table.boolean('manual') ?? true;
  const webhook = table.boolean('webhook') ?? false;
  const schedule = readSchedule(table);
  const events = table.tables('events').map((event) => {
    const type = event.string('type', true)!;
    const pattern = event.string('pattern');
    if (pattern !== undefined) {
      const guarded = guardPattern(pattern);
      if (!guarded.ok)
        throw new HandFieldProblem(
          'invalid_trigger',
          `"${event.path}.pattern" is refused: ${guarded.problem.message}`,
        );
    }
    const priority = event.integer('priority', -1000) ?? 0;
    event.finish();
    return { type, ...(pattern !== undefined ? { pattern } : {}), priority };
  });
  table.finish();
  return { manual, ...schedule, webhook, events };
}

/**
 * `schedule = "0 9 * * *"`, `schedule = { cron = "…", timezone = "…" }`, `schedule = true` with
 * `cron = "…"` (and `timezone`) beside it, `schedule = false`, or `interval = <seconds>` beside it.
 */
function readSchedule(table: TomlTable): HandSchedule {
  const found = table.raw('schedule');
  const cron = table.string('cron');
  const timezone = table.string('timezone');
  const interval = table.integer(['interval', 'interval_secs', 'interval_seconds'], 1);
  const beside: HandSchedule = interval !== undefined ? { intervalSeconds: interval } : {};
  if (!found) return cron ? { ...beside, schedule: { cron, ...(timezone ? { timezone } : {}) } } : beside;
  if (found[1] === true) {
    if (!cron)
      throw new HandFieldProblem(
        'invalid_trigger',
        `"${table.path}.schedule = true" needs cron = "<expression>" beside it`,
      );
    return { ...beside, schedule: { cron, ...(timezone ? { timezone } : {}) } };
  }
  return { ...beside, ...readScheduleValue(found[1], `${table.path}.schedule`, timezone) };
}

function readRateLimit(table: TomlTable | undefined) {
  if (!table) return undefined;
  const maxRuns = table.integer(['max_runs', 'max_requests', 'max_calls'], 1);
  const windowSeconds = table.integer(['window_seconds', 'window_secs', 'period_seconds'], 1);
  table.finish();
  if (maxRuns === undefined || windowSeconds === undefined)
    throw new HandFieldProblem(
      'missing_field',
      `"${table.path}" needs max_runs (or max_requests) and window_seconds`,
    );
  return { maxRuns, windowSeconds };
}

function readAudit(table: TomlTable | undefined) {
  if (!table) return undefined;
  const retentionDays = table.integer('retention_days', 1);
  const audit = {
    logInputs: table.boolean('log_inputs') ?? true,
    logOutputs: table.boolean('log_outputs') ?? true,
    ...(retentionDays !== undefined ? { retentionDays } : {}),
  };
  table.finish();
  return audit;
}

function readWorkflow(tables: TomlTable[]): HandWorkflowStep[] {
  return tables.map((table) => {
    const name = table.string(['name', 'id', 'step'], true)!;
    const tool = table.string(['tool', 'action']);
    const prompt = table.string(['prompt', 'description', 'instruction']);
    table.finish();
    return { name, ...(tool ? { tool } : {}), ...(prompt ? { prompt } : {}) };
  });
}

/** Without an `[hand.agent]` prompt, the model is told the description and the steps in order. */
function workflowPrompt(description: string, workflow: HandWorkflowStep[]): string {
  if (workflow.length === 0) return description;
  const steps = workflow.map(
    (step, index) =>
      `${index + 1}. ${step.name}${step.tool ? ` (tool ${step.tool})` : ''}${step.prompt ? `: ${step.prompt}` : ''}`,
  );
  return `${description}\n\nFollow these steps in order:\n${steps.join('\n')}`;
}
