import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { hostname } from 'node:os';
import type { ServiceName } from '@talon/contracts';
import { parseTelemetryConfig, type TelemetryConfig } from '@talon/telemetry';
import { InvalidConfigError } from './errors/invalid-config-error.js';

/** Settings every Talon service shares. Each field has a default that works on a developer machine. */
export interface ServiceConfig {
  service: ServiceName;
  /** NATS server URL(s), comma-separated. Default `nats://127.0.0.1:4222` (env `NATS_URL`). */
  natsUrl: string;
  /** Unique id of this process, announced in health and catalog replies. */
  instanceId: string;
  /** Version reported by `system.status`. */
  version: string;
  /** How many times to try the first NATS connection before giving up. Default 10 (env `NATS_CONNECT_ATTEMPTS`). */
  connectAttempts: number;
  /** Pause between connection attempts. Default 500 ms (env `NATS_CONNECT_DELAY_MS`). */
  connectDelayMs: number;
  /** How long SIGTERM waits for in-flight requests. Default 10000 ms (env `TALON_DRAIN_TIMEOUT_MS`). */
  drainTimeoutMs: number;
  /** Largest request payload a handler accepts. Default 1 MiB (env `TALON_MAX_PAYLOAD_BYTES`). */
  maxPayloadBytes: number;
  /** Minimum log level. Default `info` (env `LOG_LEVEL`). */
  logLevel: LogLevel;
  /** How this service signs in to NATS and, optionally, TLS to the server. */
  natsAuth: NatsClientAuth;
  /** Tracing (standard `OTEL_*` variables; off without an OTLP endpoint) and the metrics listener (`TALON_METRICS_*`). */
  telemetry: TelemetryConfig;
}

/**
 * NATS credentials and TLS of one service. User defaults to the service name (env `NATS_USER`); the password
 * comes from `NATS_PASSWORD` or the file named by `NATS_PASSWORD_FILE` (compose secrets). TLS is used when
 * `NATS_TLS_CA` (and optionally `NATS_TLS_CERT` + `NATS_TLS_KEY` for a client certificate) is set.
 */
export interface NatsClientAuth {
  user?: string;
  password?: string;
  tls?: { caFile: string; certFile?: string; keyFile?: string };
}

/** Reads the NATS credentials of a service from its environment. */
export function parseNatsClientAuth(service: string, env: NodeJS.ProcessEnv = process.env): NatsClientAuth {
  let password = env.NATS_PASSWORD || undefined;
  if (!password && env.NATS_PASSWORD_FILE) {
    try {
      password = readFileSync(env.NATS_PASSWORD_FILE, 'utf8').trim();
    } catch (error) {
      throw new InvalidConfigError(
        'NATS_PASSWORD_FILE',
        env.NATS_PASSWORD_FILE,
        `a readable file (${(error as Error).message})`,
      );
    }
  }
  const auth: NatsClientAuth = {};
  if (password) {
    auth.user = env.NATS_USER || service;
    auth.password = password;
  }
  if (env.NATS_TLS_CA) {
    if (Boolean(env.NATS_TLS_CERT) !== Boolean(env.NATS_TLS_KEY))
      throw new InvalidConfigError(
        'NATS_TLS_CERT',
        env.NATS_TLS_CERT ?? '',
        'set together with NATS_TLS_KEY',
      );
    auth.tls = {
      caFile: env.NATS_TLS_CA,
      certFile: env.NATS_TLS_CERT || undefined,
      keyFile: env.NATS_TLS_KEY || undefined,
    };
  }
  return auth;
}

/** Log levels, lowest first. */
export const LOG_LEVELS = ['debug', 'info', 'warn', 'error'] as const;
/** A log level. */
export type LogLevel = (typeof LOG_LEVELS)[number];

export const DEFAULT_NATS_URL = 'nats://127.0.0.1:4222';
export const DEFAULT_CONNECT_ATTEMPTS = 10;
export const DEFAULT_CONNECT_DELAY_MS = 500;
export const DEFAULT_DRAIN_TIMEOUT_MS = 10_000;
export const DEFAULT_MAX_PAYLOAD_BYTES = 1024 * 1024;
export const TALON_VERSION = '0.1.0';

/** Reads a positive integer from the environment or returns the default; a bad value is a start-up error. */
export function readPositiveInt(env: NodeJS.ProcessEnv, name: string, fallback: number): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value <= 0) {
    throw new InvalidConfigError(name, raw, 'a positive integer');
  }
  return value;
}

/** Parses and validates the shared service settings once, at start. */
export function parseServiceConfig(
  service: ServiceName,
  env: NodeJS.ProcessEnv = process.env,
): ServiceConfig {
  const logLevel = (env.LOG_LEVEL ?? 'info') as LogLevel;
  if (!LOG_LEVELS.includes(logLevel))
    throw new InvalidConfigError('LOG_LEVEL', env.LOG_LEVEL ?? '', LOG_LEVELS.join(' | '));
  const natsUrl = env.NATS_URL || DEFAULT_NATS_URL;
  for (const url of natsUrl.split(',')) {
    if (!/^(nats|tls|ws|wss):\/\/[^\s]+$/.test(url.trim()) && !/^[\w.-]+:\d+$/.test(url.trim())) {
      throw new InvalidConfigError('NATS_URL', natsUrl, 'a URL like nats://127.0.0.1:4222');
    }
  }
  return {
    service,
    natsUrl,
    instanceId:
      env.TALON_INSTANCE_ID || `${service}-${hostname()}-${process.pid}-${randomUUID().slice(0, 8)}`,
    version: TALON_VERSION,
    connectAttempts: readPositiveInt(env, 'NATS_CONNECT_ATTEMPTS', DEFAULT_CONNECT_ATTEMPTS),
    connectDelayMs: readPositiveInt(env, 'NATS_CONNECT_DELAY_MS', DEFAULT_CONNECT_DELAY_MS),
    drainTimeoutMs: readPositiveInt(env, 'TALON_DRAIN_TIMEOUT_MS', DEFAULT_DRAIN_TIMEOUT_MS),
    maxPayloadBytes: readPositiveInt(env, 'TALON_MAX_PAYLOAD_BYTES', DEFAULT_MAX_PAYLOAD_BYTES),
    logLevel,
    natsAuth: parseNatsClientAuth(service, env),
    telemetry: parseTelemetryConfig(env, `talon-${service}`),
  };
}
