import { describe, expect, it } from '@jest/globals';
import type { ScheduleParseResult } from '@talon/contracts';
import { parseSchedule } from './schedule-parser.js';

// Tuesday 1 December 2026, 10:00 in Shanghai.
const NOW = '2026-12-01T10:00:00+08:00';
const TIMEZONE = 'Asia/Shanghai';
const HANDS = ['digest', 'collector'];

/** [text, kind, family or problem, cron / instant / everyMs of the (first) schedule, task, target]. */
type Phrase = [string, ScheduleParseResult['kind'], string, string | number | undefined, string, string];

function summary(result: ScheduleParseResult): Phrase {
  const schedule =
    'schedule' in result
      ? result.schedule
      : 'candidates' in result
        ? result.candidates[0]!.schedule
        : undefined;
  const value =
    schedule === undefined
      ? undefined
      : schedule.type === 'cron'
        ? schedule.cron
        : schedule.type === 'once'
          ? schedule.at
          : schedule.everyMs;
  const detail = result.kind === 'exact' ? result.family : result.kind === 'none' ? '' : result.problem;
  const target = result.kind === 'none' ? '' : result.target + (result.hand ? `:${result.hand}` : '');
  return ['', result.kind, detail, value, result.task, target];
}

const H = 3_600_000;
const CHINESE: Phrase[] = [
  // daily, with every time-of-day word
  ['每天早上9点提醒我查房', 'exact', 'daily', '0 9 * * *', '查房', 'reminder'],
  ['每天早上8点提醒我吃药', 'exact', 'daily', '0 8 * * *', '吃药', 'reminder'],
  ['每天下午3点半提醒我开会', 'exact', 'daily', '30 15 * * *', '开会', 'reminder'],
  ['每天晚上9点一刻提醒我洗澡', 'exact', 'daily', '15 21 * * *', '洗澡', 'reminder'],
  ['每天晚上十点三刻提醒我刷牙', 'exact', 'daily', '45 22 * * *', '刷牙', 'reminder'],
  ['每天凌晨2点备份数据库', 'exact', 'daily', '0 2 * * *', '备份数据库', 'agent'],
  ['每天傍晚6点提醒我遛狗', 'exact', 'daily', '0 18 * * *', '遛狗', 'reminder'],
  ['每天半夜12点提醒我睡觉', 'exact', 'daily', '0 0 * * *', '睡觉', 'reminder'],
  ['每天晚上12点提醒我睡觉', 'exact', 'daily', '0 0 * * *', '睡觉', 'reminder'],
  ['每天中午12点提醒我午休', 'exact', 'daily', '0 12 * * *', '午休', 'reminder'],
  ['每天中午1点提醒我开会', 'exact', 'daily', '0 13 * * *', '开会', 'reminder'],
  ['每天早晨六点叫我起床', 'exact', 'daily', '0 6 * * *', '起床', 'reminder'],
  ['天天早上七点叫我起床', 'exact', 'daily', '0 7 * * *', '起床', 'reminder'],
  ['每日上午10点整检查邮件', 'exact', 'daily', '0 10 * * *', '检查邮件', 'agent'],
  ['每天十五点三十分提醒我喝茶', 'exact', 'daily', '30 15 * * *', '喝茶', 'reminder'],
  ['每天9点05分提醒我站会', 'exact', 'daily', '5 9 * * *', '站会', 'reminder'],
  ['每天18:30提醒我下班', 'exact', 'daily', '30 18 * * *', '下班', 'reminder'],
  ['每天下午3:45提醒我喝咖啡', 'exact', 'daily', '45 15 * * *', '喝咖啡', 'reminder'],
  ['每晚十点提醒我睡觉', 'exact', 'daily', '0 22 * * *', '睡觉', 'reminder'],
  ['每天中午提醒我吃饭', 'exact', 'daily', '0 12 * * *', '吃饭', 'reminder'],
  ['每天8点和18点提醒我吃药', 'exact', 'daily', '0 8,18 * * *', '吃药', 'reminder'],
  ['北京时间每天早上9点提醒我查房', 'exact', 'daily', '0 9 * * *', '查房', 'reminder'],
  // every N days
  ['每隔一天早上8点提醒我浇花', 'exact', 'every_n_days', 2 * 24 * H, '浇花', 'reminder'],
  ['每3天晚上8点提醒我换水', 'exact', 'every_n_days', 3 * 24 * H, '换水', 'reminder'],
  ['隔天下午两点提醒我打球', 'exact', 'every_n_days', 2 * 24 * H, '打球', 'reminder'],
  // weekly
  ['每周一上午10点开周会', 'exact', 'weekly', '0 10 * * 1', '开周会', 'agent'],
  ['每周五下午5点提醒我写周报', 'exact', 'weekly', '0 17 * * 5', '写周报', 'reminder'],
  ['每个星期天上午10点提醒我打电话回家', 'exact', 'weekly', '0 10 * * 0', '打电话回家', 'reminder'],
  ['每周二和周四晚上8点提醒我上课', 'exact', 'weekly', '0 20 * * 2,4', '上课', 'reminder'],
  ['每礼拜六早上9点提醒我去图书馆', 'exact', 'weekly', '0 9 * * 6', '去图书馆', 'reminder'],
  ['每周一三五晚上7点提醒我跑步', 'exact', 'weekly', '0 19 * * 1,3,5', '跑步', 'reminder'],
  ['每周一到周三早上7点提醒我跑步', 'exact', 'weekly', '0 7 * * 1,2,3', '跑步', 'reminder'],
  // weekdays and weekends
  ['工作日早上8点半提醒我打卡', 'exact', 'weekdays', '30 8 * * 1-5', '打卡', 'reminder'],
  ['每个工作日早上9点提醒我开站会', 'exact', 'weekdays', '0 9 * * 1-5', '开站会', 'reminder'],
  ['周一到周五下午6点提醒我下班', 'exact', 'weekdays', '0 18 * * 1-5', '下班', 'reminder'],
  ['周末上午十点提醒我去健身', 'exact', 'weekends', '0 10 * * 0,6', '去健身', 'reminder'],
  ['每个周末上午10点提醒我去爬山', 'exact', 'weekends', '0 10 * * 0,6', '去爬山', 'reminder'],
  // intervals
  ['每隔15分钟提醒我喝水', 'exact', 'interval', '*/15 * * * *', '喝水', 'reminder'],
  ['每半小时提醒我活动一下', 'exact', 'interval', '*/30 * * * *', '活动一下', 'reminder'],
  ['每小时提醒我喝水', 'exact', 'interval', '0 * * * *', '喝水', 'reminder'],
  ['每隔两个小时检查一下服务器', 'exact', 'interval', '0 */2 * * *', '检查一下服务器', 'agent'],
  ['每隔45分钟提醒我休息', 'exact', 'interval', 45 * 60_000, '休息', 'reminder'],
  ['每分钟检查一次', 'exact', 'interval', '* * * * *', '检查一次', 'agent'],
  // monthly
  ['每月1号早上9点提醒我交房租', 'exact', 'monthly', '0 9 1 * *', '交房租', 'reminder'],
  ['每个月的15号下午3点提醒我还信用卡', 'exact', 'monthly', '0 15 15 * *', '还信用卡', 'reminder'],
  ['每月1号和15号上午10点提醒我发工资条', 'exact', 'monthly', '0 10 1,15 * *', '发工资条', 'reminder'],
  ['每月31号晚上8点提醒我对账', 'exact', 'monthly', '0 20 31 * *', '对账', 'reminder'],
  // one-shot, absolute
  ['明天下午3点提醒我开会', 'exact', 'once', '2026-12-02T15:00:00+08:00', '开会', 'reminder'],
  ['明天早上8点提醒我带伞', 'exact', 'once', '2026-12-02T08:00:00+08:00', '带伞', 'reminder'],
  ['后天下午三点提醒我取快递', 'exact', 'once', '2026-12-03T15:00:00+08:00', '取快递', 'reminder'],
  ['大后天上午十点提醒我复诊', 'exact', 'once', '2026-12-04T10:00:00+08:00', '复诊', 'reminder'],
  ['今天晚上8点提醒我看球', 'exact', 'once', '2026-12-01T20:00:00+08:00', '看球', 'reminder'],
  ['今晚十点提醒我关窗', 'exact', 'once', '2026-12-01T22:00:00+08:00', '关窗', 'reminder'],
  ['下周一上午10点提醒我交报告', 'exact', 'once', '2026-12-07T10:00:00+08:00', '交报告', 'reminder'],
  ['下个星期五下午4点开会', 'exact', 'once', '2026-12-11T16:00:00+08:00', '开会', 'agent'],
  ['周五下午3点提醒我交作业', 'exact', 'once', '2026-12-04T15:00:00+08:00', '交作业', 'reminder'],
  ['这周四晚上7点提醒我聚餐', 'exact', 'once', '2026-12-03T19:00:00+08:00', '聚餐', 'reminder'],
  ['12月25日晚上8点提醒我拆礼物', 'exact', 'once', '2026-12-25T20:00:00+08:00', '拆礼物', 'reminder'],
  ['2027年1月1日零点提醒我新年快乐', 'exact', 'once', '2027-01-01T00:00:00+08:00', '新年快乐', 'reminder'],
  ['下个月3号上午9点提醒我体检', 'exact', 'once', '2027-01-03T09:00:00+08:00', '体检', 'reminder'],
  ['明天中午提醒我订餐', 'exact', 'once', '2026-12-02T12:00:00+08:00', '订餐', 'reminder'],
  ['下午5点提醒我接孩子', 'exact', 'once', '2026-12-01T17:00:00+08:00', '接孩子', 'reminder'],
  ['早上9点提醒我开会', 'exact', 'once', '2026-12-02T09:00:00+08:00', '开会', 'reminder'],
  ['3天后下午2点提醒我复查', 'exact', 'once', '2026-12-04T14:00:00+08:00', '复查', 'reminder'],
  // one-shot, relative
  ['20分钟后提醒我关火', 'exact', 'once', '2026-12-01T10:20:00+08:00', '关火', 'reminder'],
  ['10分钟后提醒我关火', 'exact', 'once', '2026-12-01T10:10:00+08:00', '关火', 'reminder'],
  ['一个半小时后提醒我出门', 'exact', 'once', '2026-12-01T11:30:00+08:00', '出门', 'reminder'],
  ['两小时后提醒我开会', 'exact', 'once', '2026-12-01T12:00:00+08:00', '开会', 'reminder'],
  ['3天后提醒我复查', 'exact', 'once', '2026-12-04T10:00:00+08:00', '复查', 'reminder'],
  // ambiguous
  ['半小时后叫我', 'ambiguous', 'missing_task', '2026-12-01T10:30:00+08:00', '', 'reminder'],
  ['每天早上8点', 'ambiguous', 'missing_task', '0 8 * * *', '', 'agent'],
  ['每天晚上提醒我写日记', 'ambiguous', 'missing_time', '0 20 * * *', '写日记', 'reminder'],
  ['明天提醒我去银行', 'ambiguous', 'missing_time', '2026-12-02T09:00:00+08:00', '去银行', 'reminder'],
  ['12月25日提醒我买礼物', 'ambiguous', 'missing_time', '2026-12-25T09:00:00+08:00', '买礼物', 'reminder'],
  ['每月15号提醒我交房租', 'ambiguous', 'missing_time', '0 9 15 * *', '交房租', 'reminder'],
  ['每周提醒我写周报', 'ambiguous', 'missing_day', '0 9 * * 1', '写周报', 'reminder'],
  ['每月提醒我交电费', 'ambiguous', 'missing_day', '0 9 1 * *', '交电费', 'reminder'],
  ['每天三点提醒我吃药', 'ambiguous', 'ambiguous_hour', '0 3 * * *', '吃药', 'reminder'],
  ['每天8点和18点半提醒我吃药', 'ambiguous', 'multiple_times', '0 8 * * *', '吃药', 'reminder'],
  // unclear
  ['每天每周提醒我', 'unclear', 'contradictory', undefined, '', 'reminder'],
  ['每天明天提醒我喝水', 'unclear', 'contradictory', undefined, '喝水', 'reminder'],
  ['每隔两小时上午9点提醒我', 'unclear', 'contradictory', undefined, '', 'reminder'],
  ['每天25点提醒我', 'unclear', 'invalid_time', undefined, '', 'reminder'],
  ['每天上午15点提醒我', 'unclear', 'invalid_time', undefined, '', 'reminder'],
  ['每月32号提醒我', 'unclear', 'invalid_date', undefined, '', 'reminder'],
  ['2月30日提醒我', 'unclear', 'invalid_date', undefined, '', 'reminder'],
  ['今天上午9点提醒我开会', 'unclear', 'in_past', undefined, '开会', 'reminder'],
  ['2025年1月1日提醒我', 'unclear', 'in_past', undefined, '', 'reminder'],
  ['提醒我一下', 'unclear', 'unparsed', undefined, '', 'reminder'],
  // targets and none
  ['每天早上8点运行 digest', 'exact', 'daily', '0 8 * * *', '运行 digest', 'hand:digest'],
  ['每天早上8点运行工作流', 'exact', 'daily', '0 8 * * *', '运行工作流', 'workflow'],
  ['我每天早上9点上班', 'none', '', undefined, '我每天早上9点上班', ''],
  ['我们下午3点到', 'none', '', undefined, '我们下午3点到', ''],
  ['每个人都有梦想', 'none', '', undefined, '每个人都有梦想', ''],
  ['你好，今天天气怎么样', 'none', '', undefined, '你好，今天天气怎么样', ''],
];

const ENGLISH: Phrase[] = [
  ['remind me every day at 9am to take my pills', 'exact', 'daily', '0 9 * * *', 'take my pills', 'reminder'],
  [
    'every day at 6:30pm remind me to walk the dog',
    'exact',
    'daily',
    '30 18 * * *',
    'walk the dog',
    'reminder',
  ],
  ['every morning at 7 remind me to meditate', 'exact', 'daily', '0 7 * * *', 'meditate', 'reminder'],
  ['every evening at 7 walk the dog', 'exact', 'daily', '0 19 * * *', 'walk the dog', 'agent'],
  ['every night at 11 remind me to sleep', 'exact', 'daily', '0 23 * * *', 'sleep', 'reminder'],
  ['every day at noon remind me to eat', 'exact', 'daily', '0 12 * * *', 'eat', 'reminder'],
  ['daily at 18:30 post the summary', 'exact', 'daily', '30 18 * * *', 'post the summary', 'agent'],
  [
    'every other day at 8am water the plants',
    'exact',
    'every_n_days',
    2 * 24 * H,
    'water the plants',
    'agent',
  ],
  [
    'every 3 days at 9pm remind me to change the filter',
    'exact',
    'every_n_days',
    3 * 24 * H,
    'change the filter',
    'reminder',
  ],
  [
    'every Friday at 5pm send the status report',
    'exact',
    'weekly',
    '0 17 * * 5',
    'send the status report',
    'agent',
  ],
  ['every Monday and Wednesday at 7am go running', 'exact', 'weekly', '0 7 * * 1,3', 'go running', 'agent'],
  [
    'every mon, wed and fri at 6:30 go to the gym',
    'exact',
    'weekly',
    '30 6 * * 1,3,5',
    'go to the gym',
    'agent',
  ],
  ['on mondays at 9am review the backlog', 'exact', 'weekly', '0 9 * * 1', 'review the backlog', 'agent'],
  [
    'every weekday at 8:30am remind me to stand up',
    'exact',
    'weekdays',
    '30 8 * * 1-5',
    'stand up',
    'reminder',
  ],
  [
    'every weekday at 9:00 Shanghai time, summarise the open incidents',
    'exact',
    'weekdays',
    '0 9 * * 1-5',
    'summarise the open incidents',
    'agent',
  ],
  ['monday to friday at 6pm remind me to leave', 'exact', 'weekdays', '0 18 * * 1-5', 'leave', 'reminder'],
  ['weekends at 10am remind me to call dad', 'exact', 'weekends', '0 10 * * 0,6', 'call dad', 'reminder'],
  ['every 15 minutes check the queue', 'exact', 'interval', '*/15 * * * *', 'check the queue', 'agent'],
  [
    'every half hour remind me to drink water',
    'exact',
    'interval',
    '*/30 * * * *',
    'drink water',
    'reminder',
  ],
  ['hourly check the build', 'exact', 'interval', '0 * * * *', 'check the build', 'agent'],
  ['every 2 hours check the inbox', 'exact', 'interval', '0 */2 * * *', 'check the inbox', 'agent'],
  ['every 90 minutes remind me to stretch', 'exact', 'interval', 90 * 60_000, 'stretch', 'reminder'],
  ['on the 1st of every month at 9am pay rent', 'exact', 'monthly', '0 9 1 * *', 'pay rent', 'agent'],
  [
    'every month on the 15th at 10:00 send the invoice',
    'exact',
    'monthly',
    '0 10 15 * *',
    'send the invoice',
    'agent',
  ],
  [
    'remind me to call mom tomorrow at 3pm',
    'exact',
    'once',
    '2026-12-02T15:00:00+08:00',
    'call mom',
    'reminder',
  ],
  [
    'tomorrow at 3pm remind me to call the bank',
    'exact',
    'once',
    '2026-12-02T15:00:00+08:00',
    'call the bank',
    'reminder',
  ],
  [
    'next Monday 10:00 send the weekly report',
    'exact',
    'once',
    '2026-12-07T10:00:00+08:00',
    'send the weekly report',
    'agent',
  ],
  [
    'the day after tomorrow at 10am remind me to pick up the parcel',
    'exact',
    'once',
    '2026-12-03T10:00:00+08:00',
    'pick up the parcel',
    'reminder',
  ],
  [
    'next Friday at 4pm remind me to submit the form',
    'exact',
    'once',
    '2026-12-11T16:00:00+08:00',
    'submit the form',
    'reminder',
  ],
  [
    'on Friday at 2pm remind me to book the room',
    'exact',
    'once',
    '2026-12-04T14:00:00+08:00',
    'book the room',
    'reminder',
  ],
  [
    'December 25 at 8pm remind me to open presents',
    'exact',
    'once',
    '2026-12-25T20:00:00+08:00',
    'open presents',
    'reminder',
  ],
  [
    'remind me on Dec 31st at 11:59pm to celebrate',
    'exact',
    'once',
    '2026-12-31T23:59:00+08:00',
    'celebrate',
    'reminder',
  ],
  [
    'tonight at 9 remind me to lock the door',
    'exact',
    'once',
    '2026-12-01T21:00:00+08:00',
    'lock the door',
    'reminder',
  ],
  ['at midnight remind me to log off', 'exact', 'once', '2026-12-02T00:00:00+08:00', 'log off', 'reminder'],
  [
    'remind me at 5pm to pick up the kids',
    'exact',
    'once',
    '2026-12-01T17:00:00+08:00',
    'pick up the kids',
    'reminder',
  ],
  ['in 20 minutes remind me to stretch', 'exact', 'once', '2026-12-01T10:20:00+08:00', 'stretch', 'reminder'],
  [
    'in 2 hours remind me to check the oven',
    'exact',
    'once',
    '2026-12-01T12:00:00+08:00',
    'check the oven',
    'reminder',
  ],
  ['in half an hour remind me to leave', 'exact', 'once', '2026-12-01T10:30:00+08:00', 'leave', 'reminder'],
  [
    'in an hour and a half remind me to call back',
    'exact',
    'once',
    '2026-12-01T11:30:00+08:00',
    'call back',
    'reminder',
  ],
  [
    '30 minutes from now remind me to stretch',
    'exact',
    'once',
    '2026-12-01T10:30:00+08:00',
    'stretch',
    'reminder',
  ],
  ['every day at 9am run collector', 'exact', 'daily', '0 9 * * *', 'run collector', 'hand:collector'],
  [
    'every day at 7am run the morning workflow',
    'exact',
    'daily',
    '0 7 * * *',
    'run the morning workflow',
    'workflow',
  ],
  ['remind me in 10 minutes', 'ambiguous', 'missing_task', '2026-12-01T10:10:00+08:00', '', 'reminder'],
  ['every day at 9am', 'ambiguous', 'missing_task', '0 9 * * *', '', 'agent'],
  [
    'every week at 9am remind me to call grandma',
    'ambiguous',
    'missing_day',
    '0 9 * * 1',
    'call grandma',
    'reminder',
  ],
  ['every day at 3 remind me to stretch', 'ambiguous', 'ambiguous_hour', '0 3 * * *', 'stretch', 'reminder'],
  [
    'tomorrow remind me to renew the domain',
    'ambiguous',
    'missing_time',
    '2026-12-02T09:00:00+08:00',
    'renew the domain',
    'reminder',
  ],
  ['every day every week remind me', 'unclear', 'contradictory', undefined, '', 'reminder'],
  ['remind me at 25:00 to eat', 'unclear', 'invalid_time', undefined, 'eat', 'reminder'],
  ['remind me at 13pm', 'unclear', 'invalid_time', undefined, '', 'reminder'],
  ['remind me on February 30 to pay', 'unclear', 'invalid_date', undefined, 'pay', 'reminder'],
  ['remind me today at 9am to call', 'unclear', 'in_past', undefined, 'call', 'reminder'],
  ['remind me later', 'unclear', 'unparsed', undefined, 'later', 'reminder'],
  ['what time is it', 'none', '', undefined, 'what time is it', ''],
  ['I will call you tomorrow at 3pm', 'none', '', undefined, 'I will call you tomorrow at 3pm', ''],
  ['the weekly report is due', 'none', '', undefined, 'the weekly report is due', ''],
];

describe('parseSchedule phrases', () => {
  it('covers at least 80 phrases across both languages', () => {
    expect(CHINESE.length + ENGLISH.length).toBeGreaterThanOrEqual(80);
  });

  it.each([...CHINESE, ...ENGLISH])('%s', (text, ...expected) => {
    const result = parseSchedule(text, { timezone: TIMEZONE, now: NOW, hands: HANDS });
    expect(summary(result).slice(1)).toEqual(expected);
  });
});
