import type { Hand, Trigger } from '@talon/contracts';
import { derivedRoutineId, type OwnedRoutine } from './owned-routines.js';

/** The owner of routines made from a hand's triggers. */
export function handOwner(hand: string): string {
  return `hand:${hand}`;
}

/** How far ahead of the sync a `once` hand's routine is set, so it is still in the future when created. */
const ONCE_LEAD_MS = 1_000;

/** Event types that mean "a chat message" (their pattern runs over it); any other type names a system event. */
const CHAT_EVENT = /^(chat|message)(\..+)?$/;
const SYSTEM_EVENT_NAME = /^[A-Za-z0-9_.:-]{1,128}$/;

/**
 * The routines a hand's triggers ask for, each running the hand: `schedule` → cron (in its timezone),
 * `intervalSeconds` → interval, `once` → one fire shortly after `now`, `webhook` → a webhook routine, a
 * chat `[[hand.triggers.events]]` entry with a pattern → an event routine (case-insensitive, as the hand
 * parser checked it), any other event type → a system event of that name. `manual` needs no routine.
 * System hands (registered in code) are never scheduled from here.
 */
export function handRoutines(hands: readonly Hand[], now: Date): OwnedRoutine[] {
  const routines: OwnedRoutine[] = [];
  for (const hand of hands) {
    if (hand.system) continue;
    const add = (identity: string, label: string, trigger: Trigger): void => {
      routines.push({
        id: derivedRoutineId('talon.hand-routine', `${hand.id}\n${identity}`),
        owner: handOwner(hand.id),
        request: { name: `${hand.id}: ${label}`, trigger, action: { kind: 'hand', hand: hand.id } },
      });
    };
    const { schedule, intervalSeconds, once, webhook, events } = hand.triggers;
    if (schedule)
      add(
        `schedule\n${schedule.cron}\n${schedule.timezone ?? ''}`,
        `schedule ${schedule.cron}${schedule.timezone ? ` (${schedule.timezone})` : ''}`,
        {
          kind: 'cron',
          expression: schedule.cron,
          ...(schedule.timezone ? { timezone: schedule.timezone } : {}),
        },
      );
    if (intervalSeconds !== undefined)
      add(`interval\n${intervalSeconds}`, `every ${intervalSeconds} s`, {
        kind: 'interval',
        everyMs: intervalSeconds * 1000,
      });
    if (once) add('once', 'once', { kind: 'once', at: new Date(now.getTime() + ONCE_LEAD_MS).toISOString() });
    if (webhook) add('webhook', 'webhook', { kind: 'webhook' });
    for (const event of events) {
      if (CHAT_EVENT.test(event.type)) {
        // A chat event without a pattern would run the hand on every message: it asks for nothing.
        if (event.pattern === undefined) continue;
        const pattern = event.pattern.startsWith('(?i)') ? event.pattern.slice(4) : event.pattern;
        add(`event\n${event.type}\n${event.pattern}`, `${event.type} /${pattern}/`, {
          kind: 'event',
          pattern,
          flags: /\\[pP]\{|\\u\{/.test(pattern) ? 'iu' : 'i',
        });
      } else if (SYSTEM_EVENT_NAME.test(event.type)) {
        add(`system_event\n${event.type}`, `event ${event.type}`, { kind: 'system_event', name: event.type });
      }
    }
  }
  return routines;
}
