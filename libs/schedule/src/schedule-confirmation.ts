import type { ScheduleParseResult } from '@talon/contracts';

type Exact = Extract<ScheduleParseResult, { kind: 'exact' }>;

/**
 * The answer to an exact schedule caught before the model, in the message's language:
 * "好的，每天 09:00 提醒你：查房", "OK, I'll remind you every weekday at 09:00: stand up".
 */
export function scheduleConfirmation(result: Exact): string {
  const task = result.task.trim();
  if (result.language === 'zh') {
    if (result.target === 'reminder') return `好的，${result.description} 提醒你：${task}`;
    if (result.target === 'hand')
      return `好的，${result.description} 运行 ${result.hand ?? task}${task ? `：${task}` : ''}`;
    return `好的，${result.description} 执行：${task}`;
  }
  if (result.target === 'reminder') return `OK, I'll remind you ${result.description}: ${task}`;
  if (result.target === 'hand') return `OK, I'll run the hand ${result.hand ?? task} ${result.description}.`;
  return `OK, I'll do this ${result.description}: ${task}`;
}
