import { describe, expect, it } from '@jest/globals';
import { DateTime } from 'luxon';
import { ParamsInvalidError, ToolFailedError, ToolPipeline, ToolRegistry } from '@talon/tool-runtime';
import { InvalidTimeError } from './errors/invalid-time-error.js';
import { UnknownTimeZoneError } from './errors/unknown-time-zone-error.js';
import { createTimeTool } from './time-tool.js';

const fixedNow = DateTime.fromISO('2026-03-01T12:00:00Z', { zone: 'utc' });

function timeCall(params: Record<string, unknown>) {
  const registry = new ToolRegistry();
  registry.register(createTimeTool({ now: () => fixedNow }));
  return new ToolPipeline(registry)
    .runLocal({ tool: 'time', params })
    .then((result) => result.output as Record<string, any>);
}

describe('time tool', () => {
  it('is a side-effect-free built-in', () => {
    expect(createTimeTool().definition).toMatchObject({
      name: 'time',
      effects: [],
      approval: 'never',
      domain: 'orchestrator',
      source: 'builtin',
    });
  });

  it('now: in a zone, with its offset', async () => {
    expect(await timeCall({ operation: 'now', zone: 'Asia/Shanghai' })).toEqual({
      iso: '2026-03-01T20:00:00.000+08:00',
      zone: 'Asia/Shanghai',
      offset: '+08:00',
      unix: Math.floor(fixedNow.toSeconds()),
      formatted: '2026-03-01T20:00:00.000+08:00',
    });
    expect((await timeCall({ operation: 'now' })).zone).toBe('UTC');
    const real = await new ToolPipeline(
      (() => {
        const r = new ToolRegistry();
        r.register(createTimeTool());
        return r;
      })(),
    ).runLocal({ tool: 'time', params: { operation: 'now', format: 'unix' } });
    expect(Math.abs((real.output as { formatted: number }).formatted - Date.now() / 1000)).toBeLessThan(5);
  });

  it('convert: across zones, honouring daylight saving time', async () => {
    const summer = await timeCall({
      operation: 'convert',
      time: '2026-07-01T09:00:00',
      zone: 'America/New_York',
      toZone: 'Europe/Berlin',
    });
    expect(summer.iso).toBe('2026-07-01T15:00:00.000+02:00');
    const winter = await timeCall({
      operation: 'convert',
      time: '2026-01-15T09:00:00-05:00',
      toZone: 'Europe/Berlin',
    });
    expect(winter.iso).toBe('2026-01-15T15:00:00.000+01:00');
    expect(
      (await timeCall({ operation: 'convert', time: '2026-01-15T00:00:00Z', toZone: 'UTC+5:30' })).offset,
    ).toBe('+05:30');
  });

  it('format: iso, rfc2822, http, unix, unix_ms, date, custom tokens with a locale', async () => {
    const base = { operation: 'format', time: '2026-03-01T09:05:07Z' };
    expect((await timeCall({ ...base, format: 'rfc2822' })).formatted).toBe(
      'Sun, 01 Mar 2026 09:05:07 +0000',
    );
    expect((await timeCall({ ...base, format: 'http' })).formatted).toBe('Sun, 01 Mar 2026 09:05:07 GMT');
    expect((await timeCall({ ...base, format: 'unix' })).formatted).toBe(1772355907);
    expect((await timeCall({ ...base, format: 'unix_ms' })).formatted).toBe(1772355907000);
    expect((await timeCall({ ...base, format: 'date' })).formatted).toBe('2026-03-01');
    expect((await timeCall({ ...base, format: 'custom', pattern: 'yyyy/MM/dd HH:mm' })).formatted).toBe(
      '2026/03/01 09:05',
    );
    expect(
      (await timeCall({ ...base, format: 'custom', pattern: 'cccc d LLLL', locale: 'de-DE' })).formatted,
    ).toBe('Sonntag 1 März');
  });

  it('reads unix seconds, RFC 2822 and HTTP dates as input', async () => {
    expect((await timeCall({ operation: 'format', time: 1772355907 })).iso).toBe('2026-03-01T09:05:07.000Z');
    expect((await timeCall({ operation: 'format', time: '1772355907' })).iso).toBe(
      '2026-03-01T09:05:07.000Z',
    );
    expect((await timeCall({ operation: 'format', time: 'Sun, 01 Mar 2026 09:05:07 +0100' })).iso).toBe(
      '2026-03-01T09:05:07.000+01:00',
    );
    expect((await timeCall({ operation: 'format', time: 'Sun, 01 Mar 2026 09:05:07 GMT' })).unix).toBe(
      1772355907,
    );
  });

  it('add: ISO durations and unit objects, negative amounts, month ends', async () => {
    expect(
      (await timeCall({ operation: 'add', time: '2026-01-31T10:00:00Z', duration: { months: 1 } })).iso,
    ).toBe('2026-02-28T10:00:00.000Z');
    expect(
      (await timeCall({ operation: 'add', time: '2026-03-01T00:00:00Z', duration: 'P1DT2H30M' })).iso,
    ).toBe('2026-03-02T02:30:00.000Z');
    expect(
      (await timeCall({ operation: 'add', time: '2026-03-01T00:00:00Z', duration: { days: -1 } })).iso,
    ).toBe('2026-02-28T00:00:00.000Z');
    // DST in Berlin on 2026-03-29: one calendar day is 23 hours.
    expect(
      (
        await timeCall({
          operation: 'add',
          time: '2026-03-28T12:00:00',
          zone: 'Europe/Berlin',
          duration: { days: 1 },
        })
      ).iso,
    ).toBe('2026-03-29T12:00:00.000+02:00');
    expect((await timeCall({ operation: 'add', duration: { hours: 1 } })).iso).toBe(
      '2026-03-01T13:00:00.000Z',
    );
  });

  it('diff: in chosen units and milliseconds', async () => {
    const result = await timeCall({
      operation: 'diff',
      time: '2026-03-01T00:00:00Z',
      end: '2026-03-03T06:30:00Z',
    });
    expect(result).toEqual({
      milliseconds: 196_200_000,
      iso: 'P2DT6H30M',
      units: { days: 2, hours: 6, minutes: 30, seconds: 0 },
    });
    const hours = await timeCall({
      operation: 'diff',
      time: '2026-03-03T00:00:00Z',
      end: '2026-03-01T00:00:00Z',
      units: ['hours'],
    });
    expect(hours.units).toEqual({ hours: -48 });
  });

  it('refuses an unknown zone with a typed error that names it', async () => {
    for (const params of [
      { operation: 'now', zone: 'Mars/Olympus_Mons' },
      { operation: 'now', zone: 'local' },
      { operation: 'convert', time: '2026-01-01T00:00:00Z', toZone: 'Nowhere/City' },
    ]) {
      const error = await timeCall(params).then(
        () => undefined,
        (caught: unknown) => caught,
      );
      expect(error).toBeInstanceOf(UnknownTimeZoneError);
      expect(error).toBeInstanceOf(ToolFailedError);
      expect((error as UnknownTimeZoneError).code).toBe('TOOL_FAILED');
      expect((error as UnknownTimeZoneError).details).toMatchObject({ reason: 'unknown_time_zone' });
    }
  });

  it('refuses unreadable times and durations', async () => {
    await expect(timeCall({ operation: 'format', time: 'next tuesday-ish' })).rejects.toBeInstanceOf(
      InvalidTimeError,
    );
    await expect(timeCall({ operation: 'format', time: '2026-02-30T00:00:00Z' })).rejects.toBeInstanceOf(
      InvalidTimeError,
    );
    await expect(
      timeCall({ operation: 'add', time: '2026-01-01T00:00:00Z', duration: 'one day' }),
    ).rejects.toBeInstanceOf(InvalidTimeError);
    await expect(timeCall({ operation: 'format', time: 1e20 })).rejects.toBeInstanceOf(InvalidTimeError);
  });

  it('names the parameter an operation is missing', async () => {
    const missing = async (params: Record<string, unknown>) => {
      const error = await timeCall(params).catch((caught: unknown) => caught);
      expect(error).toBeInstanceOf(ParamsInvalidError);
      return (error as ParamsInvalidError).details;
    };
    expect(await missing({ operation: 'convert', time: '2026-01-01T00:00:00Z' })).toEqual([
      { path: '/toZone', message: 'is required for operation "convert"' },
    ]);
    expect((await missing({ operation: 'add' }))[0]!.path).toBe('/duration');
    expect((await missing({ operation: 'diff' }))[0]!.path).toBe('/end');
    expect((await missing({ operation: 'format', format: 'custom' }))[0]!.path).toBe('/pattern');
    expect((await missing({ operation: 'now', locale: 'not a locale!' }))[0]!.path).toBe('/locale');
    expect((await missing({ operation: 'yesterday' }))[0]!.path).toBe('/operation');
  });
});
