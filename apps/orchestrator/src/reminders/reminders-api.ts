import { Inject, Injectable, type OnModuleInit } from '@nestjs/common';
import {
  RemindersCancelRequestSchema,
  RemindersListRequestSchema,
  type RemindersCancelRequest,
  type RemindersListRequest,
} from '@talon/contracts';
import { ApiRouter } from '../api/api-router.js';
import type { ApiCallContext } from '../api/api-method.js';
import { SessionAccess } from '../auth/session-access.js';
import { REMINDER_SERVICE } from './reminders.constants.js';
import type { ReminderService } from './reminder-service.js';

/** `reminders.list`, `reminders.cancel`: the reminders of the sessions the caller may use. */
@Injectable()
export class RemindersApi implements OnModuleInit {
  constructor(
    private readonly router: ApiRouter,
    @Inject(REMINDER_SERVICE) private readonly reminders: ReminderService,
    private readonly access: SessionAccess,
  ) {}

  onModuleInit(): void {
    this.router.register({
      name: 'reminders.list',
      scope: 'read',
      description:
        'Reminders set in chat (routines of action reminder) and the notifications delivered, newest first.',
      request: RemindersListRequestSchema,
      handle: async (request: RemindersListRequest, context: ApiCallContext) => {
        if (request.sessionId) await this.access.assertCanUse(context.principal, request.sessionId);
        return this.reminders.list(
          request,
          (ids) => this.access.usable(context.principal, ids),
          context.principal?.scope === 'operator',
        );
      },
    });
    this.router.register({
      name: 'reminders.cancel',
      scope: 'agent',
      description: 'Cancels a reminder: nothing more is delivered.',
      request: RemindersCancelRequestSchema,
      handle: async (request: RemindersCancelRequest, context: ApiCallContext) => {
        const sessionId = await this.reminders.sessionOfReminder(request.id);
        if (sessionId) await this.access.assertCanUse(context.principal, sessionId);
        return this.reminders.cancel(request.id);
      },
    });
  }
}
