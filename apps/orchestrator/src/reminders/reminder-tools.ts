import {
  ERROR_CODES,
  RemindersCancelRequestSchema,
  RemindersListRequestSchema,
  type RemindersCancelRequest,
  type RemindersListRequest,
} from '@talon/contracts';
import { TalonError } from '@talon/errors';
import type { Tool } from '@talon/tool-runtime';
import { tool } from '../autonomy/autonomy-tools.js';
import type { ReminderService } from './reminder-service.js';

/** The model's tools over reminders: those of the session it talks in only. */
export function createReminderTools(reminders: ReminderService): Tool[] {
  const own = (sessionId: string | undefined) => async (ids: string[]) =>
    new Set(ids.filter((id) => id === sessionId));
  return [
    tool<RemindersListRequest>(
      'reminder_list',
      'Lists the reminders set in this conversation and the ones delivered.',
      RemindersListRequestSchema,
      false,
      (params, context) =>
        reminders.list(
          { ...params, ...(context.sessionId ? { sessionId: context.sessionId } : {}) },
          own(context.sessionId),
        ),
    ),
    tool<RemindersCancelRequest>(
      'reminder_cancel',
      'Cancels a reminder of this conversation.',
      RemindersCancelRequestSchema,
      true,
      async (params, context) => {
        const sessionId = await reminders.sessionOfReminder(params.id);
        // Another conversation's reminder is answered as if it did not exist.
        if (sessionId !== context.sessionId)
          throw new TalonError(
            ERROR_CODES.NOT_FOUND,
            `No reminder ${params.id} in this conversation; see reminder_list.`,
          );
        return reminders.cancel(params.id);
      },
    ),
  ] as unknown as Tool[];
}
