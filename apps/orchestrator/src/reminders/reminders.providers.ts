import type { Provider } from '@nestjs/common';
import type { Database } from '@talon/persistence';
import type { ToolCatalog } from '@talon/tool-runtime';
import type { ChatService } from '../agent/chat-service.js';
import { JOB_ACTION_HANDLERS, ROUTINE_SERVICE } from '../autonomy/autonomy.constants.js';
import type { JobActionHandlers } from '../autonomy/job-action-handlers.js';
import type { RoutineService } from '../autonomy/routine-service.js';
import { CHAT_SERVICE, HAND_CATALOG, TOOL_CATALOG } from '../config/orchestrator.constants.js';
import type { OrchestratorConfig } from '../config/orchestrator-config.js';
import type { HandCatalog } from '../hands/hand-catalog.js';
import { ReminderNotificationStore } from './reminder-notification-store.js';
import { ReminderService } from './reminder-service.js';
import { createReminderTools } from './reminder-tools.js';
import { REMINDER_SERVICE, SCHEDULE_INTERCEPT } from './reminders.constants.js';
import { RemindersApi } from './reminders-api.js';
import { ScheduleIntercept } from './schedule-intercept.js';

/** Reminders delivered by `_reminder`, the chat path's schedule catch, reminders.* and the model's tools. */
export function reminderProviders(config: OrchestratorConfig, database: Database): Provider[] {
  return [
    {
      provide: REMINDER_SERVICE,
      inject: [CHAT_SERVICE, ROUTINE_SERVICE, JOB_ACTION_HANDLERS, TOOL_CATALOG],
      useFactory: (
        chat: ChatService,
        routines: RoutineService,
        handlers: JobActionHandlers,
        tools: ToolCatalog,
      ) => {
        const service = new ReminderService(
          database.prisma,
          chat,
          routines,
          new ReminderNotificationStore(database.prisma),
        );
        handlers.register('reminder', service.deliver);
        for (const tool of createReminderTools(service)) tools.registerLocal(tool);
        return service;
      },
    },
    {
      provide: SCHEDULE_INTERCEPT,
      inject: [CHAT_SERVICE, ROUTINE_SERVICE, HAND_CATALOG],
      useFactory: (chat: ChatService, routines: RoutineService, hands: HandCatalog) => {
        const intercept = new ScheduleIntercept(routines, hands, config.timezone);
        chat.interceptMessages((sessionId, message, emit) => intercept.intercept(sessionId, message, emit));
        return intercept;
      },
    },
    RemindersApi,
  ];
}
