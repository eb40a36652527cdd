import { CronExpressionParser } from 'cron-parser';
import type { SkillTriggerTable } from '@talon/contracts';
import type { LoadedSkill } from './loaded-skill.js';

/**
 * The trigger table of all eligible skills: commands (first skill in precedence order wins a command),
 * cron schedules validated with cron-parser (with their next run), webhook events and manual skills.
 * Invalid or duplicate triggers are listed with the reason instead of being dropped silently.
 */
export function collectTriggers(skills: readonly LoadedSkill[], now: Date = new Date()): SkillTriggerTable {
  const table: SkillTriggerTable = { commands: [], schedules: [], webhooks: [], manual: [], invalid: [] };
  const commandOwners = new Map<string, string>();
  for (const skill of skills) {
    if (!skill.gating.eligible) continue;
    for (const trigger of skill.triggers) {
      switch (trigger.kind) {
        case 'command': {
          const owner = commandOwners.get(trigger.command);
          if (owner) {
            table.invalid.push({
              skill: skill.name,
              trigger: trigger.command,
              reason: `command already routed to "${owner}"`,
            });
            break;
          }
          commandOwners.set(trigger.command, skill.name);
          table.commands.push({ command: trigger.command, skill: skill.name });
          break;
        }
        case 'schedule': {
          try {
            const next = CronExpressionParser.parse(trigger.cron, {
              currentDate: now,
              ...(trigger.timezone ? { tz: trigger.timezone } : {}),
            }).next();
            table.schedules.push({
              cron: trigger.cron,
              skill: skill.name,
              nextRun: next.toISOString() ?? undefined,
              ...(trigger.timezone ? { timezone: trigger.timezone } : {}),
            });
          } catch (error) {
            table.invalid.push({
              skill: skill.name,
              trigger: trigger.cron,
              reason: `invalid cron: ${(error as Error).message}`,
            });
          }
          break;
        }
        case 'webhook':
          table.webhooks.push({ event: trigger.event, skill: skill.name });
          break;
        case 'manual':
          if (!table.manual.includes(skill.name)) table.manual.push(skill.name);
          break;
      }
    }
  }
  return table;
}

/** The skill a `/command` routes to, if any. */
export function skillForCommand(table: SkillTriggerTable, command: string): string | undefined {
  const normalised = (command.startsWith('/') ? command : `/${command}`).toLowerCase();
  return table.commands.find((entry) => entry.command === normalised)?.skill;
}
