import type { ScheduleTarget } from '@talon/contracts';
import { CONSUMED } from './schedule-text.js';

const REMINDER_CUE =
  /提醒\s?我\s?一下|提醒一下\s?我|提醒\s?我|提醒一下|提醒|叫醒\s?我|叫\s?我|通知\s?我|通知一下|记得|别忘了|别忘记|不要忘记|闹钟|\bremind\s+me\s+(?:to|about|of|that)\b|\bremind\s+me\b|\bset\s+a\s+reminder\s+(?:to|for)?|\breminder\s*(?:to\b|:)?|\bdon'?t\s+(?:let\s+me\s+)?forget\s+(?:to\b)?|\b(?:notify|alert|ping)\s+me\s*(?:to\b|about\b|of\b)?/gi;
const WORKFLOW_CUE = /工作流|流程|\bworkflows?\b|\bpipelines?\b/i;
const HAND_CUE = /\bhand\b/i;
// A request to someone else ("please", 帮我) makes a statement an instruction.
const REQUEST_CUE = /^(?:请你?|麻烦你?|帮我|帮忙|please|can you|could you|would you)\s*/i;
const WANT_CUE = /^(?:我想|我要|我需要|i want(?: you)? to|i need(?: you)? to|i'?d like(?: you)? to)\s*/i;
// A message that only tells about oneself ("我明天去北京", "I'll call you at 3pm") asks nothing of Talon.
const FIRST_PERSON = /^(?:我(?!们想)|我们|i\b|i'm\b|i'll\b|i've\b|we\b|we'll\b|we're\b)/i;
// Words left at the edges once the schedule is cut out: prepositions, particles, punctuation.
const LEADING_GLUE =
  /^(?:[\s,，。.、:：;；!！?？\-—~]|(?:to|at|on|in|by|from|for|and|starting|then)\b|的|在|要|就|再)+/i;
const TRAILING_GLUE =
  /(?:[\s,，。.、:：;；!！?？\-—~]|\b(?:to|at|on|in|by|from|for|and|then)|的时候|的|时)+$/i;
// A joiner between two schedule parts ("8点和18点") belongs to the schedule.
const BETWEEN_SCHEDULE_PARTS = new RegExp(
  `(?<=${CONSUMED})\\s*(?:和|及|与|跟|、|,|，|and|&)\\s*(?=${CONSUMED})`,
  'gi',
);
// Trailing glue is short; testing only the tail keeps the end-anchored pattern linear in the text.
const TAIL_CHARS = 24;

/** The task text, its target and whether it only describes the writer's own plans. */
export interface ScheduleTask {
  task: string;
  target: ScheduleTarget;
  hand?: string;
  /** A reminder, request or wish was expressed ("提醒我", "please", "I want you to"). */
  asked: boolean;
  /** The message only tells about the writer and asks nothing: not an instruction to schedule. */
  statement: boolean;
}

/**
 * Builds the task from what the schedule rules left: reminder phrases and edge glue removed, spaces
 * collapsed. The target is a reminder when the message asks to be reminded, a hand when it names a known
 * hand (or says "hand"), a workflow when it says so, else an agent prompt.
 */
export function extractTask(rest: string, hands: readonly string[] = []): ScheduleTask {
  const reminded = new RegExp(REMINDER_CUE.source, 'i').test(rest);
  let task = rest
    .replace(BETWEEN_SCHEDULE_PARTS, (joiner) => CONSUMED.repeat(joiner.length))
    .replaceAll(CONSUMED, ' ')
    .replace(REMINDER_CUE, ' ')
    .replace(/\s+/g, ' ')
    .trim();
  task = stripEdges(task);
  const requested = REQUEST_CUE.test(task) || WANT_CUE.test(task);
  task = stripEdges(task.replace(REQUEST_CUE, '').replace(WANT_CUE, ''));
  const asked = reminded || requested;
  const statement = !asked && FIRST_PERSON.test(task);
  const hand = reminded ? undefined : findHand(task, hands);
  const target: ScheduleTarget = reminded
    ? 'reminder'
    : hand !== undefined || HAND_CUE.test(task)
      ? 'hand'
      : WORKFLOW_CUE.test(task)
        ? 'workflow'
        : 'agent';
  return { task, target, ...(hand !== undefined ? { hand } : {}), asked, statement };
}

function stripEdges(text: string): string {
  let previous;
  let current = text;
  do {
    previous = current;
    current = current.replace(LEADING_GLUE, '');
    const tailStart = Math.max(0, current.length - TAIL_CHARS);
    const glue = TRAILING_GLUE.exec(current.slice(tailStart));
    // A match at the very start of the tail may be the end of a longer word ("pho|to"): keep it then.
    if (glue && (glue.index > 0 || tailStart === 0 || !isWordChar(current[tailStart - 1])))
      current = current.slice(0, tailStart + glue.index);
    current = current.trim();
  } while (current !== previous);
  return current;
}

function findHand(task: string, hands: readonly string[]): string | undefined {
  const lower = task.toLowerCase();
  return hands.find((id) => {
    const at = lower.indexOf(id.toLowerCase());
    if (at < 0) return false;
    const before = lower[at - 1];
    const after = lower[at + id.length];
    return !isWordChar(before) && !isWordChar(after);
  });
}

function isWordChar(char: string | undefined): boolean {
  return char !== undefined && /[a-z0-9_-]/.test(char);
}
