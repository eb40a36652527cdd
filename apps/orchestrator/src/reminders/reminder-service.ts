import {
  ERROR_CODES,
  type JobAction,
  type Reminder,
  type ReminderNotification,
  type Trigger,
} from '@talon/contracts';
import { TalonError } from '@talon/errors';
import type { PrismaClient, Routine as RoutineRow } from '@talon/persistence';
import type { ChatService } from '../agent/chat-service.js';
import type { JobActionHandler } from '../autonomy/job-action-handlers.js';
import type { RoutineService } from '../autonomy/routine-service.js';
import type { ReminderNotificationStore } from './reminder-notification-store.js';

type ReminderAction = Extract<JobAction, { kind: 'reminder' }>;

/**
 * Reminders: routines whose action is `reminder`, delivered by the system hand `_reminder` — an event on
 * the session's stream and a stored notification — with no model call. Listed and cancelled here.
 */
export class ReminderService {
  constructor(
    private readonly prisma: PrismaClient,
    private readonly chat: ChatService,
    private readonly routines: RoutineService,
    private readonly notifications: ReminderNotificationStore,
  ) {}

  /** The `reminder` job action: publish on the session's stream, store the notification once per job. */
  readonly deliver: JobActionHandler = async (context) => {
    const action = context.action as ReminderAction;
    const target = action.sessionId;
    const routineId = context.routineId;
    const stored = await this.notifications.store({
      jobId: context.jobId,
      routineId,
      sessionId: target ?? null,
      text: action.text,
    });
    const reminder = {
      type: 'reminder',
      jobId: context.jobId,
      notificationId: stored.id,
      ...(routineId ? { reminderId: routineId } : {}),
      text: action.text,
      target: action.target ?? '_reminder',
      deliveredAt: stored.deliveredAt.toISOString(),
    };
    if (target !== undefined) this.chat.publish(target, reminder);
    context.onEvent({ ...reminder, sessionId: target ?? '' });
    return {
      kind: 'completed',
      result: {
        delivered: target !== undefined,
        ...(target ? { sessionId: target } : {}),
        text: action.text,
      },
    };
  };

  /** Reminders (of the sessions in `sessions`, when given) and their recent deliveries, newest first. */
  async list(
    filter: { sessionId?: string; limit?: number },
    visible: (sessionIds: string[]) => Promise<Set<string>>,
    /** Operators also see reminders that belong to no session. */
    operator = false,
  ): Promise<{ reminders: Reminder[]; notifications: ReminderNotification[] }> {
    const limit = filter.limit ?? 100;
    const rows = await this.prisma.routine.findMany({
      where: {
        action: { path: ['kind'], equals: 'reminder' },
        ...(filter.sessionId ? { owner: `session:${filter.sessionId}` } : {}),
      },
      orderBy: { createdAt: 'desc' },
      take: limit,
    });
    const notifications = await this.prisma.reminderNotification.findMany({
      where: filter.sessionId ? { sessionId: filter.sessionId } : {},
      orderBy: { deliveredAt: 'desc' },
      take: limit,
    });
    const sessions = [
      ...new Set(
        [...rows.map((row) => sessionOf(row)), ...notifications.map((entry) => entry.sessionId)].filter(
          (id): id is string => typeof id === 'string',
        ),
      ),
    ];
    const usable = await visible(sessions);
    const allowed = { has: (id: string) => (id === '' ? operator : usable.has(id)) };
    return {
      reminders: rows.filter((row) => allowed.has(sessionOf(row) ?? '')).map(toReminderView),
      notifications: notifications
        .filter((entry) => allowed.has(entry.sessionId ?? ''))
        .map((entry) => ({
          id: entry.id,
          ...(entry.routineId ? { reminderId: entry.routineId } : {}),
          jobId: entry.jobId,
          ...(entry.sessionId ? { sessionId: entry.sessionId } : {}),
          text: entry.text,
          deliveredAt: entry.deliveredAt.toISOString(),
        })),
    };
  }

  /** The session a reminder belongs to (its action's, else its owner's). */
  async sessionOfReminder(id: string): Promise<string | undefined> {
    return sessionOf(await this.require(id));
  }

  /** Cancels a reminder: its routine is deleted, nothing more is delivered. */
  async cancel(id: string): Promise<{ id: string; cancelled: boolean }> {
    await this.require(id);
    const { deleted } = await this.routines.delete(id);
    return { id, cancelled: deleted };
  }

  private async require(id: string): Promise<RoutineRow> {
    const row = await this.prisma.routine.findUnique({ where: { id } });
    if (!row || (row.action as JobAction).kind !== 'reminder')
      throw new TalonError(ERROR_CODES.NOT_FOUND, `No reminder ${id}; list them with reminders.list.`, {
        details: { id },
      });
    return row;
  }
}

function sessionOf(row: RoutineRow): string | undefined {
  const action = row.action as ReminderAction;
  return (
    action.sessionId ?? (row.owner.startsWith('session:') ? row.owner.slice('session:'.length) : undefined)
  );
}

function toReminderView(row: RoutineRow): Reminder {
  const action = row.action as ReminderAction;
  const sessionId = sessionOf(row);
  const finished =
    row.nextFireAt === null && (row.trigger as Trigger).kind === 'once' && row.lastFireAt !== null;
  return {
    id: row.id,
    text: action.text,
    ...(sessionId ? { sessionId } : {}),
    trigger: row.trigger as Trigger,
    description: row.name,
    state: row.paused ? 'paused' : row.disabledReason ? 'disabled' : finished ? 'done' : 'active',
    ...(row.nextFireAt ? { nextFireAt: row.nextFireAt.toISOString() } : {}),
    createdAt: row.createdAt.toISOString(),
  };
}
