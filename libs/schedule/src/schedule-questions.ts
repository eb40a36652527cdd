import type { ScheduleLanguage, ScheduleProblem, ScheduleTarget } from '@talon/contracts';

/** What a question may mention: the schedule so far, the words at fault, the task, the choices. */
export interface QuestionFacts {
  /** The schedule so far in words ("每天", "tomorrow (Wed 2 Dec)"). */
  when?: string;
  /** The words that caused the problem ("25点", "每天" and "每周"). */
  words?: readonly string[];
  /** The candidates in words. */
  options?: readonly string[];
  target: ScheduleTarget;
}

function quote(words: readonly string[] | undefined, language: ScheduleLanguage): string[] {
  return (words ?? []).map((word) => (language === 'zh' ? `“${word.trim()}”` : `"${word.trim()}"`));
}

/** The question to ask for a problem, in the message's language. */
export function scheduleQuestion(
  problem: ScheduleProblem,
  facts: QuestionFacts,
  language: ScheduleLanguage,
): string {
  const words = quote(facts.words, language);
  const options = facts.options ?? [];
  if (language === 'zh') {
    const verb = facts.target === 'reminder' ? '提醒你' : '执行';
    const choices = options.length > 0 ? `（${options.join(' / ')}）` : '';
    switch (problem) {
      case 'missing_time':
        return `${facts.when ?? ''}几点${verb}？${choices}`;
      case 'missing_day':
        return /月/.test(facts.when ?? '') ? `每月几号${verb}？${choices}` : `每周哪一天${verb}？${choices}`;
      case 'ambiguous_hour':
        return `${words[0] ?? '这个时间'}是上午还是下午/晚上？${choices}`;
      case 'multiple_times':
        return `你说了几个时间，要用哪一个？${choices}`;
      case 'missing_task':
        return `${facts.when ?? ''}要${facts.target === 'reminder' ? '提醒你' : '做'}什么？`;
      case 'contradictory':
        return `${words.join('和')}互相矛盾，你想要哪一种？`;
      case 'invalid_time':
        return `${words[0] ?? '这个时间'}不是有效的时间，你指的是几点？`;
      case 'invalid_date':
        return `${words[0] ?? '这个日期'}不是有效的日期，你指的是哪一天？`;
      case 'in_past':
        return `${facts.when ?? '这个时间'}已经过去了，要改到什么时候？`;
      case 'too_long':
        return '消息太长，我没法从中读出时间；请用一句话说明什么时候做什么。';
      case 'unparsed':
        return `你想让我什么时候${verb}？例如“明天上午9点”或“每天晚上8点”。`;
    }
  }
  const verb = facts.target === 'reminder' ? 'remind you' : 'run it';
  const choices = options.length > 0 ? ` (${options.join(' / ')})` : '';
  switch (problem) {
    case 'missing_time':
      return `At what time ${facts.when ?? ''} should I ${verb}?${choices}`.replace(/\s+/g, ' ');
    case 'missing_day':
      return /month/.test(facts.when ?? '')
        ? `On which day of the month should I ${verb}?${choices}`
        : `On which day of the week should I ${verb}?${choices}`;
    case 'ambiguous_hour':
      return `Is ${words[0] ?? 'that'} in the morning or in the afternoon/evening?${choices}`;
    case 'multiple_times':
      return `You named several times; which one do you mean?${choices}`;
    case 'missing_task':
      return `What should I ${facts.target === 'reminder' ? 'remind you of' : 'do'} ${facts.when ?? ''}?`.replace(
        /\s+\?/,
        '?',
      );
    case 'contradictory':
      return `${words.join(' and ')} contradict each other; which one do you mean?`;
    case 'invalid_time':
      return `${words[0] ?? 'That'} is not a time of day; what time do you mean?`;
    case 'invalid_date':
      return `${words[0] ?? 'That'} is not a date; which day do you mean?`;
    case 'in_past':
      return `${facts.when ?? 'That time'} has already passed; when should it be instead?`;
    case 'too_long':
      return 'The message is too long to read a schedule from; say in one sentence when and what.';
    case 'unparsed':
      return `When should I ${verb}? For example "tomorrow at 9am" or "every day at 8pm".`;
  }
}
