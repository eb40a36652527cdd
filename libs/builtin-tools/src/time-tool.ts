import { DateTime, type DurationLikeObject } from 'luxon';
import type { ToolDefinition } from '@talon/contracts';
import { ParamsInvalidError, type Tool } from '@talon/tool-runtime';
import {
  DURATION_UNITS,
  TIME_FORMATS,
  describeTime,
  parseDuration,
  parseTime,
  resolveZone,
  type DurationUnit,
  type TimeFormat,
  type TimeResult,
} from './time-values.js';

/** Operations of the `time` tool. */
export const TIME_OPERATIONS = ['now', 'convert', 'format', 'add', 'diff'] as const;
/** One `time` operation. */
export type TimeOperation = (typeof TIME_OPERATIONS)[number];

/** Params of `time`. */
export type TimeParams = {
  operation: TimeOperation;
  time?: string | number;
  end?: string | number;
  zone?: string;
  toZone?: string;
  format?: TimeFormat;
  pattern?: string;
  locale?: string;
  duration?: string | DurationLikeObject;
  units?: DurationUnit[];
};

/** What `diff` returns. */
export interface TimeDifference {
  milliseconds: number;
  iso: string;
  units: Partial<Record<DurationUnit, number>>;
}

// A type list, not anyOf: with coercion on, ajv would turn a number into a string in the first anyOf branch.
const timeInput = { type: ['string', 'number'], maxLength: 100 };

const definition: ToolDefinition = {
  name: 'time',
  description:
    'Current time, time-zone conversion, formatting and date arithmetic with IANA time zones. ' +
    'Operations: now (zone), convert (time, zone, toZone), format (time, format, pattern), add (time, duration), ' +
    'diff (time, end, units). Times are ISO 8601, RFC 2822, HTTP dates or unix seconds.',
  parameters: {
    type: 'object',
    properties: {
      operation: { type: 'string', enum: [...TIME_OPERATIONS] },
      time: {
        ...timeInput,
        description: 'The time to work on; defaults to now. A text without an offset is read in `zone`.',
      },
      end: { ...timeInput, description: 'diff only: the later time; the result is end minus time.' },
      zone: {
        type: 'string',
        maxLength: 64,
        default: 'UTC',
        description: 'IANA zone (e.g. "Asia/Shanghai"), "UTC" or "UTC+8".',
      },
      toZone: { type: 'string', maxLength: 64, description: 'convert only: the zone to convert to.' },
      format: {
        type: 'string',
        enum: [...TIME_FORMATS],
        default: 'iso',
        description: 'How `formatted` is written.',
      },
      pattern: {
        type: 'string',
        maxLength: 200,
        description: 'Luxon tokens for format "custom", e.g. "yyyy-MM-dd HH:mm".',
      },
      locale: {
        type: 'string',
        maxLength: 35,
        description: 'BCP 47 locale for month and day names, e.g. "en-US", "zh-CN".',
      },
      duration: {
        anyOf: [
          { type: 'string', maxLength: 100, description: 'ISO 8601 duration, e.g. "P1DT2H30M"' },
          {
            type: 'object',
            properties: Object.fromEntries(DURATION_UNITS.map((unit) => [unit, { type: 'number' }])),
            additionalProperties: false,
            minProperties: 1,
          },
        ],
        description: 'add only: the amount to add (negative to subtract).',
      },
      units: {
        type: 'array',
        items: { type: 'string', enum: [...DURATION_UNITS] },
        uniqueItems: true,
        maxItems: DURATION_UNITS.length,
        description:
          'diff only: units to express the difference in; default ["days", "hours", "minutes", "seconds"].',
      },
    },
    required: ['operation'],
    additionalProperties: false,
  },
  effects: [],
  approval: 'never',
  timeoutMs: 2_000,
  domain: 'orchestrator',
  source: 'builtin',
  sensitiveParams: [],
  idempotent: true,
};

function requireParam<K extends keyof TimeParams>(params: TimeParams, key: K): NonNullable<TimeParams[K]> {
  const value = params[key];
  if (value === undefined || value === null) {
    throw new ParamsInvalidError('time', [
      { path: `/${key}`, message: `is required for operation "${params.operation}"` },
    ]);
  }
  return value as NonNullable<TimeParams[K]>;
}

function checkLocale(locale: string | undefined): void {
  if (locale === undefined) return;
  try {
    Intl.getCanonicalLocales(locale);
  } catch {
    throw new ParamsInvalidError('time', [{ path: '/locale', message: 'is not a BCP 47 locale tag' }]);
  }
}

/** Runs one `time` operation; `now` is injectable so tests are deterministic. */
export function runTimeOperation(
  params: TimeParams,
  now: () => DateTime = () => DateTime.utc(),
): TimeResult | TimeDifference {
  const zone = resolveZone(params.zone ?? 'UTC', 'zone');
  const format = params.format ?? 'iso';
  checkLocale(params.locale);
  if (format === 'custom') requireParam(params, 'pattern');
  const time = params.time === undefined ? now().setZone(zone) : parseTime(params.time, zone, 'time');
  switch (params.operation) {
    case 'now':
      return describeTime(now().setZone(zone), format, params.pattern, params.locale);
    case 'format':
      return describeTime(time, format, params.pattern, params.locale);
    case 'convert': {
      const target = resolveZone(requireParam(params, 'toZone'), 'toZone');
      return describeTime(time.setZone(target), format, params.pattern, params.locale);
    }
    case 'add': {
      const duration = parseDuration(requireParam(params, 'duration'), 'duration');
      return describeTime(time.plus(duration), format, params.pattern, params.locale);
    }
    case 'diff': {
      const end = parseTime(requireParam(params, 'end'), zone, 'end');
      const units =
        params.units && params.units.length > 0
          ? params.units
          : (['days', 'hours', 'minutes', 'seconds'] as DurationUnit[]);
      const difference = end.diff(time, units);
      return {
        milliseconds: end.toMillis() - time.toMillis(),
        iso: difference.toISO() ?? '',
        units: difference.toObject(),
      };
    }
  }
}

/** The `time` tool: no side effects, so safe to retry. */
export function createTimeTool(
  options: { now?: () => DateTime } = {},
): Tool<TimeParams, TimeResult | TimeDifference> {
  return {
    definition,
    async execute(params) {
      return runTimeOperation(params, options.now);
    },
  };
}
