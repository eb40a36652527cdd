import type { HandTriggers } from '@talon/contracts';
import { HandFieldProblem, isTable } from './toml-table.js';

/** The schedule part of a hand's triggers. */
export type HandSchedule = Pick<HandTriggers, 'schedule' | 'intervalSeconds' | 'once'>;

/**
 * One schedule value, in the shapes both dialects write: a cron string, `{ cron, timezone? }`,
 * `{ interval = <seconds> }`, OpenFang's `"once"` / `"manual"`, or `false`. `where` names the key in
 * messages; `timezone` is a zone written beside the value (ZCLAW).
 */
export function readScheduleValue(value: unknown, where: string, timezone?: string): HandSchedule {
  if (value === false || value === 'manual') return {};
  if (value === 'once') return { once: true };
  if (typeof value === 'string')
    return { schedule: { cron: value.trim(), ...(timezone ? { timezone } : {}) } };
  if (isTable(value)) {
    const cron = value['cron'];
    const interval = typeof value['interval'] === 'bigint' ? Number(value['interval']) : value['interval'];
    const zone = value['timezone'] ?? timezone;
    if (zone !== undefined && typeof zone !== 'string')
      throw new HandFieldProblem('invalid_trigger', `"${where}.timezone" must be a string`);
    if (typeof cron === 'string' && interval === undefined)
      return { schedule: { cron: cron.trim(), ...(zone ? { timezone: zone } : {}) } };
    if (cron === undefined && interval !== undefined) {
      if (typeof interval !== 'number' || !Number.isSafeInteger(interval) || interval < 1)
        throw new HandFieldProblem(
          'invalid_trigger',
          `"${where}.interval" must be a whole number of seconds, at least 1`,
        );
      return { intervalSeconds: interval };
    }
  }
  throw new HandFieldProblem(
    'invalid_trigger',
    `"${where}" must be a cron string, { cron, timezone }, { interval = <seconds> }, "once" or "manual"`,
  );
}
