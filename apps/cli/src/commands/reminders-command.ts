import type { RemindersListReply } from '@talon/contracts';
import { formatTable } from '../text-table.js';
import { timeInWords } from '../time-in-words.js';
import { withTalonApi } from '../talon-api-connection.js';

/** `talon reminders --help`. */
export const REMINDERS_USAGE = `Usage:
  pnpm talon reminders [list] [--session <id>] [--json]   reminders set in chat and the ones delivered
  pnpm talon reminders cancel <id>                          stop a reminder`;

/** `talon reminders`: lists reminders (tables or --json) through `reminders.list`, cancels one. */
export async function remindersCommand(
  args: readonly string[],
  print: (line: string) => void,
): Promise<number> {
  const json = args.includes('--json');
  const sessionAt = args.indexOf('--session');
  const sessionId = sessionAt >= 0 ? args[sessionAt + 1] : undefined;
  const rest = args.filter(
    (arg, index) => arg !== '--json' && index !== sessionAt && index !== sessionAt + 1,
  );
  const [action = 'list', id] = rest;
  if (
    (action !== 'list' && action !== 'cancel') ||
    (action === 'cancel' && !id) ||
    (sessionAt >= 0 && !sessionId)
  ) {
    print(REMINDERS_USAGE);
    return 2;
  }
  return withTalonApi(print, async (call) => {
    if (action === 'cancel') {
      const reply = await call<{ id: string; cancelled: boolean }>('reminders.cancel', { id });
      print(
        json ? JSON.stringify(reply) : `${reply.id} ${reply.cancelled ? 'cancelled' : 'was already gone'}`,
      );
      return 0;
    }
    const reply = await call<RemindersListReply>('reminders.list', sessionId ? { sessionId } : {});
    if (json) {
      print(JSON.stringify(reply, null, 2));
      return 0;
    }
    print(
      reply.reminders.length === 0
        ? 'no reminders'
        : formatTable([
            ['ID', 'WHEN', 'TEXT', 'STATE', 'NEXT'],
            ...reply.reminders.map((reminder) => [
              reminder.id,
              reminder.description,
              reminder.text.slice(0, 60),
              reminder.state,
              reminder.nextFireAt ? timeInWords(new Date(reminder.nextFireAt)) : '-',
            ]),
          ]),
    );
    if (reply.notifications.length > 0) {
      print('\nDelivered:');
      print(
        formatTable([
          ['DELIVERED', 'TEXT', 'SESSION'],
          ...reply.notifications.map((entry) => [
            timeInWords(new Date(entry.deliveredAt)),
            entry.text.slice(0, 60),
            entry.sessionId ?? '-',
          ]),
        ]),
      );
    }
    return 0;
  });
}
