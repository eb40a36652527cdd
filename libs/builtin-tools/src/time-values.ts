import { DateTime, Duration, Info, type DurationLikeObject, type Zone } from 'luxon';
import { InvalidTimeError } from './errors/invalid-time-error.js';
import { UnknownTimeZoneError } from './errors/unknown-time-zone-error.js';

/** Output formats of the `time` tool. */
export const TIME_FORMATS = [
  'iso',
  'rfc2822',
  'http',
  'sql',
  'unix',
  'unix_ms',
  'date',
  'time',
  'custom',
] as const;
/** One output format. */
export type TimeFormat = (typeof TIME_FORMATS)[number];

/** Units `diff` can express a difference in. */
export const DURATION_UNITS = [
  'years',
  'quarters',
  'months',
  'weeks',
  'days',
  'hours',
  'minutes',
  'seconds',
  'milliseconds',
] as const;
/** One duration unit. */
export type DurationUnit = (typeof DURATION_UNITS)[number];

/** Resolves an IANA name, `UTC` or a fixed offset; refuses `local`/`system`, which depend on the worker. */
export function resolveZone(name: string, parameter: string): Zone {
  const lowered = name.trim().toLowerCase();
  if (lowered === 'local' || lowered === 'system' || lowered === '')
    throw new UnknownTimeZoneError(name, parameter);
  const zone = Info.normalizeZone(name.trim());
  if (!zone || !zone.isValid) throw new UnknownTimeZoneError(name, parameter);
  return zone;
}

/**
 * Reads a time: ISO 8601, RFC 2822, HTTP date, SQL, or unix seconds (number or digits). A text without an
 * offset is read in `zone`; a text with one keeps it.
 */
export function parseTime(input: string | number, zone: Zone, parameter: string): DateTime {
  if (typeof input === 'number' || /^-?\d+(\.\d+)?$/.test(input.trim())) {
    const seconds = Number(input);
    const parsed = DateTime.fromMillis(Math.round(seconds * 1000), { zone });
    if (!Number.isFinite(seconds) || !parsed.isValid)
      throw new InvalidTimeError(String(input), parameter, 'out of range');
    return parsed;
  }
  const text = input.trim();
  const options = { zone, setZone: true };
  for (const read of [DateTime.fromISO, DateTime.fromRFC2822, DateTime.fromHTTP, DateTime.fromSQL]) {
    const parsed = read(text, options);
    if (parsed.isValid) return parsed;
  }
  const explained = DateTime.fromISO(text, options);
  throw new InvalidTimeError(
    text,
    parameter,
    explained.invalidExplanation ?? explained.invalidReason ?? 'unrecognised format',
  );
}

/** Reads a duration given as an ISO 8601 text (`P1DT2H`) or an object of units (may be negative). */
export function parseDuration(input: string | DurationLikeObject, parameter: string): Duration {
  const duration = typeof input === 'string' ? Duration.fromISO(input.trim()) : Duration.fromObject(input);
  if (!duration.isValid) {
    throw new InvalidTimeError(
      typeof input === 'string' ? input : JSON.stringify(input),
      parameter,
      duration.invalidExplanation ?? 'invalid duration',
    );
  }
  return duration;
}

/** Formats a time in one of {@link TIME_FORMATS}; `custom` uses Luxon tokens (`yyyy-MM-dd HH:mm`). */
export function formatTime(
  time: DateTime,
  format: TimeFormat,
  pattern: string | undefined,
  locale: string | undefined,
): string | number {
  const localized = locale ? time.setLocale(locale) : time;
  switch (format) {
    case 'iso':
      return localized.toISO() ?? '';
    case 'rfc2822':
      return localized.toRFC2822() ?? '';
    case 'http':
      return localized.toHTTP() ?? '';
    case 'sql':
      return localized.toSQL() ?? '';
    case 'unix':
      return Math.floor(localized.toSeconds());
    case 'unix_ms':
      return localized.toMillis();
    case 'date':
      return localized.toISODate() ?? '';
    case 'time':
      return localized.toISOTime() ?? '';
    case 'custom':
      return localized.toFormat(pattern ?? "yyyy-MM-dd'T'HH:mm:ssZZ");
  }
}

/** The common shape of every time-valued result. */
export interface TimeResult {
  iso: string;
  zone: string;
  offset: string;
  unix: number;
  formatted: string | number;
}

/** A time as the `time` tool returns it. */
export function describeTime(
  time: DateTime,
  format: TimeFormat,
  pattern?: string,
  locale?: string,
): TimeResult {
  return {
    iso: time.toISO() ?? '',
    zone: time.zoneName ?? time.zone.name,
    offset: time.toFormat('ZZ'),
    unix: Math.floor(time.toSeconds()),
    formatted: formatTime(time, format, pattern, locale),
  };
}
