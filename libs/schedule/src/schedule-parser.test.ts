import { describe, expect, it } from '@jest/globals';
import { ScheduleParseResultSchema, type ScheduleParseResult, type ScheduleSpec } from '@talon/contracts';
import { Value } from '@sinclair/typebox/value';
import { Cron } from 'croner';
import { DateTime } from 'luxon';
import { hasScheduleIntent } from './schedule-intent.js';
import { ScheduleInputError } from './schedule-input-error.js';
import { parseSchedule } from './schedule-parser.js';
import { MAX_SCHEDULE_TEXT_CHARS } from './schedule-text.js';

/** A small deterministic generator, so that a failing case can be replayed. */
function random(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state * 1664525 + 1013904223) >>> 0;
    return state / 2 ** 32;
  };
}

function pick<T>(next: () => number, items: readonly T[]): T {
  return items[Math.floor(next() * items.length)]!;
}

function schedulesOf(result: ScheduleParseResult): ScheduleSpec[] {
  if (result.kind === 'exact') return [result.schedule];
  if (result.kind === 'ambiguous') return result.candidates.map((candidate) => candidate.schedule);
  return [];
}

/** Every produced cron parses with croner and fires after now; every instant lies in the future. */
function expectSound(result: ScheduleParseResult, now: DateTime): void {
  expect(Value.Check(ScheduleParseResultSchema, result)).toBe(true);
  if (result.kind === 'exact') expect(result.confidence).toBeGreaterThanOrEqual(0.8);
  for (const schedule of schedulesOf(result)) {
    if (schedule.type === 'cron') {
      const next = new Cron(schedule.cron, { timezone: schedule.timezone }).nextRun(now.toJSDate());
      expect(next).not.toBeNull();
      expect(DateTime.fromISO(schedule.nextRunAt).toMillis()).toBe(next!.getTime());
      expect(next!.getTime()).toBeGreaterThan(now.toMillis());
    } else if (schedule.type === 'once') {
      expect(DateTime.fromISO(schedule.at).toMillis()).toBeGreaterThan(now.toMillis());
    } else {
      expect(schedule.everyMs).toBeGreaterThanOrEqual(1000);
      expect(DateTime.fromISO(schedule.firstRunAt).toMillis()).toBeGreaterThan(now.toMillis());
    }
  }
}

const ZH_WHEN = [
  '每天',
  '每隔一天',
  '每3天',
  '每周一',
  '每周二和周四',
  '工作日',
  '周末',
  '每月1号',
  '每月15号和30号',
  '明天',
  '后天',
  '下周一',
  '周五',
  '12月25日',
  '3天后',
  '',
];
const ZH_TIME = [
  '早上9点',
  '下午3点半',
  '晚上8点一刻',
  '凌晨2点',
  '中午',
  '半夜12点',
  '18:30',
  '十点整',
  '3点',
  '傍晚6点',
  '晚上',
  '',
];
const ZH_EXTRA = ['', '每隔15分钟', '每小时', '20分钟后', '半小时后'];
const EN_WHEN = [
  'every day',
  'every other day',
  'every 3 days',
  'every Monday',
  'every tue and thu',
  'every weekday',
  'weekends',
  'on the 1st of every month',
  'tomorrow',
  'next Monday',
  'on Friday',
  'December 25',
  'in 3 days',
  '',
];
const EN_TIME = [
  'at 9am',
  'at 6:30pm',
  'at 18:30',
  'at noon',
  'at midnight',
  'at 7',
  'at 3',
  'in the evening',
  '',
];
const EN_EXTRA = ['', 'every 15 minutes', 'hourly', 'in 20 minutes', 'in half an hour'];
const ZH_TASKS = ['提醒我喝水', '检查服务器', '开会', '运行工作流'];
const EN_LEAD = ['remind me', 'please', ''];
const EN_TASKS = ['to drink water', 'check the build', 'send the report'];
const ZONES = ['Asia/Shanghai', 'Europe/Berlin', 'America/New_York', 'UTC', 'Australia/Sydney'];

describe('parseSchedule properties', () => {
  it('produces only crons croner accepts and instants in the future, for generated phrases', () => {
    const next = random(20261201);
    const seen = { exact: 0, cron: 0, once: 0, interval: 0 };
    for (let index = 0; index < 1500; index += 1) {
      const zone = pick(next, ZONES);
      // Any instant in 2026–2028, including daylight-saving changes.
      const now = DateTime.fromMillis(Date.UTC(2026, 0, 1) + Math.floor(next() * 3 * 365 * 86_400_000), {
        zone,
      });
      const text =
        next() < 0.5
          ? `${pick(next, ZH_WHEN)}${pick(next, ZH_TIME)}${pick(next, ZH_EXTRA)}${pick(next, ZH_TASKS)}`
          : `${pick(next, EN_LEAD)} ${pick(next, EN_WHEN)} ${pick(next, EN_TIME)} ${pick(next, EN_EXTRA)} ${pick(next, EN_TASKS)}`;
      const result = parseSchedule(text, { timezone: zone, now: now.toISO()! });
      expectSound(result, now);
      // The chat path only parses what the intent check lets through: it must never hide a schedule.
      if (result.kind !== 'none') expect([text, hasScheduleIntent(text)]).toEqual([text, true]);
      if (result.kind === 'exact') seen.exact += 1;
      for (const schedule of schedulesOf(result)) seen[schedule.type] += 1;
    }
    // The generator reaches every kind of schedule, not only questions.
    expect(seen.exact).toBeGreaterThan(200);
    expect(Math.min(seen.cron, seen.once, seen.interval)).toBeGreaterThan(25);
  });

  it('never throws on shuffled schedule words and always answers with the contract type', () => {
    const next = random(7);
    const words = [
      ...ZH_WHEN,
      ...ZH_TIME,
      ...ZH_EXTRA,
      ...EN_WHEN,
      ...EN_TIME,
      '和',
      'and',
      '，',
      '提醒我',
      '25点',
      '13pm',
      '每',
      '点',
      ':',
      '号',
      'remind me',
    ];
    const now = DateTime.fromISO('2026-06-15T23:59:30', { zone: 'Europe/Berlin' });
    for (let index = 0; index < 1500; index += 1) {
      const text = Array.from({ length: 1 + Math.floor(next() * 6) }, () => pick(next, words)).join(
        next() < 0.5 ? '' : ' ',
      );
      const result = parseSchedule(text, { timezone: 'Europe/Berlin', now: now.toISO()! });
      expectSound(result, now);
      if (result.kind !== 'none') expect([text, hasScheduleIntent(text)]).toEqual([text, true]);
    }
  });
});

describe('parseSchedule time zones', () => {
  it('computes in the given timezone and defaults to UTC', () => {
    const shanghai = parseSchedule('明天早上9点提醒我开会', {
      timezone: 'Asia/Shanghai',
      now: '2026-12-01T10:00:00+08:00',
    });
    expect(shanghai).toMatchObject({ kind: 'exact', schedule: { at: '2026-12-02T09:00:00+08:00' } });
    const utc = parseSchedule('tomorrow at 9am remind me to stretch', { now: '2026-12-01T10:00:00Z' });
    expect(utc).toMatchObject({ kind: 'exact', timezone: 'UTC', schedule: { at: '2026-12-02T09:00:00Z' } });
  });

  it('lets a timezone named in the message win over the caller’s', () => {
    const result = parseSchedule('every weekday at 9:00 Shanghai time, summarise the open incidents', {
      timezone: 'Europe/Berlin',
      now: '2026-12-01T00:00:00Z',
    });
    expect(result).toMatchObject({
      kind: 'exact',
      timezone: 'Asia/Shanghai',
      schedule: {
        type: 'cron',
        cron: '0 9 * * 1-5',
        timezone: 'Asia/Shanghai',
        nextRunAt: '2026-12-01T09:00:00+08:00',
      },
    });
  });

  it('follows the cron library across a spring-forward night (Europe/Berlin, 28 March 2027)', () => {
    const result = parseSchedule('every day at 2:30 remind me to take the pill', {
      timezone: 'Europe/Berlin',
      now: '2027-03-27T12:00:00+01:00',
    });
    expect(result.kind).toBe('exact');
    if (result.kind !== 'exact' || result.schedule.type !== 'cron') throw new Error('expected a cron');
    expect(result.schedule.cron).toBe('30 2 * * *');
    const expected = new Cron('30 2 * * *', { timezone: 'Europe/Berlin' }).nextRun(
      new Date('2027-03-27T11:00:00Z'),
    )!;
    expect(DateTime.fromISO(result.schedule.nextRunAt).toMillis()).toBe(expected.getTime());
  });

  it('rolls a time already passed today to tomorrow, and a date without a year to next year', () => {
    const now = '2026-12-01T18:00:00+08:00';
    expect(parseSchedule('下午3点提醒我取快递', { timezone: 'Asia/Shanghai', now })).toMatchObject({
      kind: 'exact',
      schedule: { at: '2026-12-02T15:00:00+08:00' },
    });
    expect(
      parseSchedule('remind me on March 3 at 9am to renew', { timezone: 'Asia/Shanghai', now }),
    ).toMatchObject({
      kind: 'exact',
      schedule: { at: '2027-03-03T09:00:00+08:00' },
    });
  });

  it('answers in the language of the message', () => {
    const zh = parseSchedule('每天早上9点提醒我查房', {
      timezone: 'Asia/Shanghai',
      now: '2026-12-01T10:00:00+08:00',
    });
    expect(zh).toMatchObject({ language: 'zh', description: '每天 09:00' });
    const en = parseSchedule('every weekday at 9am remind me to stand up', { now: '2026-12-01T10:00:00Z' });
    expect(en).toMatchObject({ language: 'en', description: 'every weekday at 09:00' });
    const question = parseSchedule('每天三点提醒我', { now: '2026-12-01T10:00:00Z' });
    expect(question).toMatchObject({ kind: 'ambiguous', question: expect.stringContaining('上午还是下午') });
  });
});

describe('parseSchedule bad input', () => {
  it('refuses an unknown timezone and an unreadable now with a typed error', () => {
    expect(() => parseSchedule('每天9点提醒我', { timezone: 'Mars/Olympus' })).toThrow(ScheduleInputError);
    expect(() => parseSchedule('每天9点提醒我', { now: 'yesterday-ish' })).toThrow(/ISO 8601/);
  });

  it('reads through control and zero-width characters without matching across them', () => {
    const result = parseSchedule('每天\u0000早上\u200b9点\u202e提醒我\u0007查房', {
      timezone: 'Asia/Shanghai',
      now: '2026-12-01T10:00:00+08:00',
    });
    expect(result).toMatchObject({ kind: 'exact', schedule: { cron: '0 9 * * *' }, task: '查房' });
  });

  it('reads full-width digits and colons', () => {
    const result = parseSchedule('每天１８：３０提醒我下班', {
      timezone: 'Asia/Shanghai',
      now: '2026-12-01T10:00:00+08:00',
    });
    expect(result).toMatchObject({ kind: 'exact', schedule: { cron: '30 18 * * *' } });
  });

  it('answers too_long for a schedule buried in a huge message, none for a huge message without one', () => {
    const long = 'x'.repeat(MAX_SCHEDULE_TEXT_CHARS) + ' 每天9点提醒我';
    expect(parseSchedule(`每天9点提醒我 ${long}`)).toMatchObject({ kind: 'unclear', problem: 'too_long' });
    expect(parseSchedule('a'.repeat(MAX_SCHEDULE_TEXT_CHARS * 4))).toMatchObject({ kind: 'none' });
  });

  it('stays linear on hostile input (no catastrophic backtracking)', () => {
    const hostile = [
      '每'.repeat(2000),
      '一'.repeat(2000),
      '周一、'.repeat(660),
      '1'.repeat(2000),
      '9:'.repeat(1000),
      ' '.repeat(1999) + '每',
      'every '.repeat(330),
      'every mon, '.repeat(180),
      '每月1号和'.repeat(400),
      '十点'.repeat(1000),
      'at 9 '.repeat(400),
      ',,,,'.repeat(500) + 'x',
      '在的在的'.repeat(500),
      'remind me to '.repeat(150),
    ];
    for (const text of hostile) {
      const started = process.hrtime.bigint();
      parseSchedule(text.slice(0, MAX_SCHEDULE_TEXT_CHARS), { now: '2026-12-01T10:00:00Z' });
      hasScheduleIntent(text);
      const elapsedMs = Number(process.hrtime.bigint() - started) / 1e6;
      // Far above the ~1 ms these take; only a super-linear pattern would reach it, even on a loaded machine.
      expect(elapsedMs).toBeLessThan(250);
    }
  });
});

describe('hasScheduleIntent', () => {
  it('spots schedule words in both languages', () => {
    for (const text of [
      '每天早上9点提醒我查房',
      '明天下午3点开会',
      '20分钟后叫我',
      'remind me tomorrow',
      'every weekday at 9',
      'in 20 minutes',
      'at 6:30pm',
      '下周一交报告',
    ]) {
      expect(hasScheduleIntent(text)).toBe(true);
    }
  });

  it('lets plain messages through', () => {
    const plain = [
      'Can you summarise this pull request for me?',
      '帮我看看这段代码有什么问题',
      'What is the capital of France?',
      '这个函数的返回值是什么类型',
      'Lorem ipsum dolor sit amet, consectetur adipiscing elit. '.repeat(18),
    ];
    for (const text of plain) expect(hasScheduleIntent(text)).toBe(false);
  });
});
