import { ToolFailedError } from '@talon/tool-runtime';

/** The `time` tool was given a zone that is neither an IANA name nor a fixed offset. */
export class UnknownTimeZoneError extends ToolFailedError {
  constructor(zone: string, parameter: string) {
    super(
      `Unknown time zone "${zone.slice(0, 80)}" in ${parameter}; use an IANA name such as "Europe/Berlin" or "Asia/Shanghai", "UTC", or an offset such as "UTC+8".`,
      { details: { reason: 'unknown_time_zone', zone, parameter } },
    );
  }
}
