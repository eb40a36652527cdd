import { Type, type Static } from '@sinclair/typebox';
import { TriggerSchema } from './routines.js';

/** A reminder set in a chat (a routine whose action is `reminder`) and what it delivered. */
export const ReminderSchema = Type.Object({
  /** The routine id. */
  id: Type.String({ format: 'uuid' }),
  text: Type.String(),
  sessionId: Type.Optional(Type.String()),
  trigger: TriggerSchema,
  /** Natural description of when ("每天 09:00", "every weekday at 09:00"). */
  description: Type.String(),
  state: Type.String(),
  nextFireAt: Type.Optional(Type.String()),
  createdAt: Type.String(),
});
/** A reminder. */
export type Reminder = Static<typeof ReminderSchema>;

/** A reminder delivered to a session: stored, so a client that was away still sees it. */
export const ReminderNotificationSchema = Type.Object({
  id: Type.String(),
  reminderId: Type.Optional(Type.String()),
  jobId: Type.Optional(Type.String()),
  sessionId: Type.Optional(Type.String()),
  text: Type.String(),
  deliveredAt: Type.String(),
});
/** A delivered reminder. */
export type ReminderNotification = Static<typeof ReminderNotificationSchema>;

/** Request of `reminders.list`: the reminders of a session (or all the caller may see) and their deliveries. */
export const RemindersListRequestSchema = Type.Object(
  {
    sessionId: Type.Optional(Type.String({ format: 'uuid' })),
    limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 500 })),
  },
  { additionalProperties: false },
);
/** Request of `reminders.list`. */
export type RemindersListRequest = Static<typeof RemindersListRequestSchema>;

/** Reply of `reminders.list`. */
export const RemindersListReplySchema = Type.Object({
  reminders: Type.Array(ReminderSchema),
  notifications: Type.Array(ReminderNotificationSchema),
});
/** Reply of `reminders.list`. */
export type RemindersListReply = Static<typeof RemindersListReplySchema>;

/** Request of `reminders.cancel`. */
export const RemindersCancelRequestSchema = Type.Object(
  { id: Type.String({ format: 'uuid' }) },
  { additionalProperties: false },
);
/** Request of `reminders.cancel`. */
export type RemindersCancelRequest = Static<typeof RemindersCancelRequestSchema>;
