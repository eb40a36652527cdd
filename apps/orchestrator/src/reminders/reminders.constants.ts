/** Injection tokens of reminders. */
export const REMINDER_SERVICE = Symbol('REMINDER_SERVICE');
export const SCHEDULE_INTERCEPT = Symbol('SCHEDULE_INTERCEPT');
