import type { Hand } from '@talon/contracts';
import { readAgent, readMetrics, readRequirements, readSettings } from './hand-sections.js';
import { readScheduleValue } from './hand-schedule.js';
import type { TomlTable } from './toml-table.js';

/** A hand as read from a file, before the checks that need the file name and the tool catalog. */
export type HandDraft = Omit<Hand, 'path' | 'warnings'>;

/**
 * OpenFang's flat dialect: top-level `id`, `name`, `description`, `category`, `icon`, `tools`, `skills`,
 * `mcp_servers`; `[[requires]]`, `[[settings]]`, `[agent]`, `[[dashboard.metrics]]`; `schedule` as OpenFang's
 * `HandSchedule` (`{ cron = "…" }`, `{ interval = <seconds> }`, `"once"`, `"manual"`) and Talon's `webhook`.
 */
export function readOpenFangHand(root: TomlTable): HandDraft {
  const id = root.string('id', true)!;
  const description = root.string('description', true)!;
  const dashboard = root.table('dashboard');
  const metrics = readMetrics(dashboard?.tables('metrics') ?? []);
  dashboard?.finish();
  const category = root.string('category');
  const icon = root.string('icon');
  const timeoutSeconds = root.integer(['timeout', 'timeout_secs'], 1);
  const maxConcurrent = root.integer('max_concurrent', 1);
  return {
    id,
    name: root.string('name') ?? id,
    version: root.string('version') ?? '1.0.0',
    description,
    dialect: 'openfang',
    system: false,
    ...(category ? { category } : {}),
    ...(icon ? { icon } : {}),
    tags: root.strings('tags'),
    tools: root.strings('tools'),
    effects: [],
    skills: root.strings('skills'),
    mcpServers: root.strings('mcp_servers'),
    requiresApproval: root.boolean(['requires_approval', 'needs_approval']) ?? false,
    ...(timeoutSeconds !== undefined ? { timeoutMs: timeoutSeconds * 1000 } : {}),
    ...(maxConcurrent !== undefined ? { maxConcurrent } : {}),
    requires: readRequirements(root.tables('requires')),
    settings: readSettings(root.tables('settings')),
    agent: readAgent(root.table('agent'), description),
    triggers: {
      manual: true,
      ...readScheduleValue(root.raw('schedule')?.[1] ?? false, 'schedule'),
      webhook: root.boolean('webhook') ?? false,
      events: [],
    },
    workflow: [],
    metrics,
  };
}
