import type {
  ChatEvent,
  ChatSendReply,
  JobAction,
  ScheduleParseResult,
  ScheduleSpec,
  Trigger,
} from '@talon/contracts';
import { hasScheduleIntent, parseSchedule, scheduleConfirmation } from '@talon/schedule';
import type { RoutineService } from '../autonomy/routine-service.js';
import type { HandCatalog } from '../hands/hand-catalog.js';

type Exact = Extract<ScheduleParseResult, { kind: 'exact' }>;

/**
 * The chat path's schedule catch, before any model call: a message with schedule intent is parsed; an
 * exact reminder becomes a routine owned by the session (action `reminder`, delivered by `_reminder`), an
 * exact schedule of another task a routine of a prompt or a hand, and the user gets the confirmation; an
 * ambiguous or unclear one gets its question. Nothing here calls the model, so it works with none set up.
 */
export class ScheduleIntercept {
  constructor(
    private readonly routines: RoutineService,
    private readonly hands: HandCatalog,
    private readonly timezone: string,
  ) {}

  /** The reply of a caught message, or undefined to let the model answer it. */
  async intercept(
    sessionId: string,
    message: string,
    emit: (event: ChatEvent) => void,
  ): Promise<ChatSendReply | undefined> {
    if (!hasScheduleIntent(message)) return undefined;
    const started = performance.now();
    const result = parseSchedule(message, { timezone: this.timezone, hands: await this.hands.ids() });
    if (result.kind === 'none') return undefined;
    let content: string;
    let routineId: string | undefined;
    if (result.kind === 'exact') {
      const created = await this.routines.create(
        {
          name: result.description,
          trigger: triggerOf(result.schedule),
          action: actionOf(result, sessionId),
          // A missed reminder is still worth delivering once when the orchestrators come back.
          guardrails: { catchUp: 'once' },
        },
        `session:${sessionId}`,
      );
      routineId = created.routine.id;
      content = scheduleConfirmation(result);
    } else {
      content = result.question;
    }
    const schedule = { result, ...(routineId ? { routineId } : {}), modelSkipped: true };
    emit({ type: 'schedule_intercepted', sessionId, content, ...schedule });
    emit({ type: 'message', sessionId, turnId: '', content });
    emit({
      type: 'turn_finished',
      sessionId,
      turnId: '',
      reason: 'schedule_intercepted',
      iterations: 0,
      modelSkipped: true,
    });
    const totalMs = performance.now() - started;
    return {
      sessionId,
      turnId: '',
      reason: result.kind === 'exact' ? 'schedule_intercepted' : 'needs_input',
      content,
      iterations: 0,
      usage: { inputTokens: 0, outputTokens: 0 },
      timings: { totalMs, modelMs: 0, toolMs: 0, overheadMs: totalMs },
      schedule,
    };
  }
}

/** A parsed schedule as a routine trigger. */
export function triggerOf(schedule: ScheduleSpec): Trigger {
  switch (schedule.type) {
    case 'cron':
      return { kind: 'cron', expression: schedule.cron, timezone: schedule.timezone };
    case 'interval':
      return {
        kind: 'interval',
        everyMs: schedule.everyMs,
        startAt: new Date(schedule.firstRunAt).toISOString(),
      };
    case 'once':
      return { kind: 'once', at: new Date(schedule.at).toISOString() };
  }
}

function actionOf(result: Exact, sessionId: string): JobAction {
  const task = result.task.trim();
  if (result.target === 'reminder')
    return { kind: 'reminder', text: task || result.description, sessionId, target: '_reminder' };
  if (result.target === 'hand' && result.hand)
    return { kind: 'hand', hand: result.hand, params: { settings: {}, ...(task ? { input: task } : {}) } };
  return { kind: 'prompt', prompt: task || result.description };
}
