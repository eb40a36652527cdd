const UNITS: ReadonlyArray<[string, number]> = [
  ['day', 86_400_000],
  ['hour', 3_600_000],
  ['minute', 60_000],
  ['second', 1_000],
];

/** "in 3 minutes", "2 hours ago", "now": the distance from `now` to `at`, in its largest whole unit. */
export function timeInWords(at: Date, now: Date = new Date()): string {
  const delta = at.getTime() - now.getTime();
  const size = Math.abs(delta);
  if (size < 1_000) return 'now';
  const [unit, ms] = UNITS.find(([, unitMs]) => size >= unitMs)!;
  const count = Math.floor(size / ms);
  const phrase = `${count} ${unit}${count === 1 ? '' : 's'}`;
  return delta > 0 ? `in ${phrase}` : `${phrase} ago`;
}

/** The instant as wall time in a timezone: `2027-01-04 09:00:00 Asia/Shanghai`. */
export function wallTime(at: Date, timezone = 'UTC'): string {
  const parts = new Intl.DateTimeFormat('en-CA', {
    timeZone: timezone,
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    hour: '2-digit',
    minute: '2-digit',
    second: '2-digit',
    hourCycle: 'h23',
  }).formatToParts(at);
  const get = (type: string) => parts.find((part) => part.type === type)?.value ?? '';
  return `${get('year')}-${get('month')}-${get('day')} ${get('hour')}:${get('minute')}:${get('second')} ${timezone}`;
}

/** Parses `500ms`, `30s`, `5m`, `2h`, `1d` (or plain milliseconds) into milliseconds. */
export function parseDuration(text: string): number {
  const match = /^(\d+)(ms|s|m|h|d)?$/.exec(text.trim());
  if (!match) throw new Error(`"${text}" is not a duration; use e.g. 30s, 5m, 2h, 1d`);
  const factor = { ms: 1, s: 1_000, m: 60_000, h: 3_600_000, d: 86_400_000 }[match[2] ?? 'ms']!;
  return Number(match[1]) * factor;
}
