import type { MessagePort } from 'node:worker_threads';

/** Messages between the pool (main thread) and a component worker. Structured-clone data only. */

/**
 * The high-water share of a worker's memory. A trap with memory at this share of the cap or above is reported
 * as running out of memory. A worker whose calls used this share of the room it had at start (from its size
 * then up to the cap) is retired after the call: linear memory never shrinks, and a guest that leaks a little
 * on every call (componentize-js does) would otherwise trap on a later call.
 */
export const MEMORY_HIGH_WATER = 0.75;

/** Levels of the guest's `log` import, lowest first; the main thread shows any other level as `info`. */
export const GUEST_LOG_LEVELS = ['debug', 'info', 'warn', 'error'] as const;

/** One of GUEST_LOG_LEVELS. */
export type GuestLogLevel = (typeof GUEST_LOG_LEVELS)[number];

/** What a worker receives at start. */
export interface ComponentWorkerData {
  /** The generated glue, imported at once; the core modules follow in a `load` message. */
  entryUrl: string;
  /** Port for synchronous host calls (the worker blocks on `signal` until the answer is posted). */
  hostPort: MessagePort;
  /** Int32 flag the main thread sets to 1 and notifies when a host answer is on `hostPort`. */
  signal: SharedArrayBuffer;
  /** Longest time the worker waits for one host answer. */
  hostCallTimeoutMs: number;
  memoryCapBytes: number;
  /** Guest log lines below this level are dropped in the worker, before they cost a message. */
  logLevel: GuestLogLevel;
}

/** Main → worker. */
export type ToWorkerMessage =
  | { type: 'load'; modules: Record<string, WebAssembly.Module> }
  | { type: 'describe' }
  | { type: 'execute'; id: number; params: string; context?: string; presentSecrets: string[] };

/** Worker → main. */
export type FromWorkerMessage =
  | { type: 'ready'; memoryBytes: number }
  | { type: 'init-failed'; message: string }
  | { type: 'described'; schema: string; description: string; memoryBytes: number }
  | { type: 'result'; id: number; output?: string; error?: string; memoryBytes: number }
  | { type: 'trap'; id: number; message: string; outOfMemory: boolean }
  | { type: 'log'; level: string; message: string };

/** Host operations the worker forwards to the main thread. */
export type HostOperation =
  | { op: 'http-request'; request: GuestHttpRequest }
  | { op: 'workspace-read'; path: string }
  | { op: 'tool-invoke'; alias: string; paramsJson: string };

/** The answer to one host operation: a value or an error string for the guest. */
export type HostAnswer = { ok: true; value: unknown } | { ok: false; error: string };

/** A host operation on the wire, numbered so a late answer to an abandoned call is recognised and dropped. */
export type SequencedHostOperation = HostOperation & { seq: number };

/** A host answer on the wire. */
export type SequencedHostAnswer = HostAnswer & { seq: number };

/** An HTTP request as the guest builds it (WIT `outgoing-request`). */
export interface GuestHttpRequest {
  method: string;
  url: string;
  headers: [string, string][];
  body?: string;
}

/** An HTTP response as the guest receives it (WIT `http-response`). */
export interface GuestHttpResponse {
  status: number;
  headers: [string, string][];
  body: string;
}
