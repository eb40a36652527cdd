import type { LoggerService } from '@nestjs/common';
import { logTraceFields } from '@talon/telemetry';
import { LOG_LEVELS, type LogLevel } from './service-config.js';

/** Where log lines go; stdout by default. */
export type LogSink = (line: string) => void;

/**
 * Structured JSON logs, one object per line: time, level, service, instance, message and fields.
 * Implements Nest's LoggerService so framework messages come out in the same shape.
 */
export class JsonLogger implements LoggerService {
  private readonly threshold: number;

  constructor(
    private readonly base: { service: string; instanceId: string },
    level: LogLevel = 'info',
    private readonly sink: LogSink = (line) => process.stdout.write(line + '\n'),
  ) {
    this.threshold = LOG_LEVELS.indexOf(level);
  }

  write(level: LogLevel, message: string, fields: Record<string, unknown> = {}): void {
    if (LOG_LEVELS.indexOf(level) < this.threshold) return;
    this.sink(
      JSON.stringify({
        time: new Date().toISOString(),
        level,
        service: this.base.service,
        instance: this.base.instanceId,
        msg: message,
        // Inside a span the line joins its trace (`trace_id`, `span_id`); nothing is added with tracing off.
        ...logTraceFields(),
        ...fields,
      }),
    );
  }

  info(message: string, fields?: Record<string, unknown>): void {
    this.write('info', message, fields);
  }

  log(message: unknown, context?: unknown): void {
    this.write('info', String(message), context === undefined ? {} : { context });
  }

  error(message: unknown, trace?: unknown, context?: unknown): void {
    this.write('error', String(message), { ...(trace ? { trace } : {}), ...(context ? { context } : {}) });
  }

  warn(message: unknown, context?: unknown): void {
    this.write('warn', String(message), context === undefined ? {} : { context });
  }

  debug(message: unknown, context?: unknown): void {
    this.write('debug', String(message), context === undefined ? {} : { context });
  }

  verbose(message: unknown, context?: unknown): void {
    this.write('debug', String(message), context === undefined ? {} : { context });
  }
}
