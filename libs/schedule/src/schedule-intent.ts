// One alternation of literal words and tiny digit patterns: a single linear scan, no backtracking to speak
// of. It is a cheap prefilter for the chat path; `parseSchedule` decides.
const INTENT =
  /每|天天|隔天|工作日|周末|明天|后天|今天|今晚|明早|明晚|下周|下个?星期|下个?月|星期|礼拜|周[一二三四五六日天]|[0-9０-９一二两三四五六七八九十]\s*[点时]|分钟后|小时后|天后|提醒|[0-9０-９]{1,2}\s*[:：]\s*[0-9０-９]{2}|\d\s*(?:am|pm|a\.m|p\.m)\b|\b(?:every|each|daily|hourly|nightly|weekly|monthly|weekdays?|weekends?|tomorrow|tonight|today|noon|midnight|remind|reminder|next\s+(?:mon|tue|wed|thu|fri|sat|sun|week|month)|in\s+(?:\d+|an?|half)\s+(?:min|hour|day|sec)|o'?clock|at\s+\d|from\s+now|(?:mon|tues|wednes|thurs|fri|satur|sun)days?|january|february|march|april|june|july|august|september|october|november|december|(?:jan|feb|mar|apr|may|jun|jul|aug|sept?|oct|nov|dec)\.?\s+\d|\d{4}-\d{1,2}-\d{1,2}|in\s+the\s+(?:morning|afternoon|evening)|at\s+night)|[0-9０-９一二两三四五六七八九十]\s*[号日月]/i;

/** The longest prefix the intent check reads; a schedule is said near the start of a message. */
export const INTENT_SCAN_CHARS = 2000;

/**
 * True when the text may hold a schedule ("每天早上9点…", "remind me tomorrow…"). Cheap enough to run on
 * every chat message; false positives only cost a parse, which then answers `none`.
 */
export function hasScheduleIntent(text: string): boolean {
  return INTENT.test(text.length > INTENT_SCAN_CHARS ? text.slice(0, INTENT_SCAN_CHARS) : text);
}
