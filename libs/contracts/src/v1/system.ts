import { Type, type Static } from '@sinclair/typebox';
import { SandboxStatusSchema } from './sandbox.js';
import { SERVICE_NAMES } from './subjects.js';

const ServiceNameSchema = Type.Union(SERVICE_NAMES.map((name) => Type.Literal(name)));

/** What one service instance answers on its health subject. */
export const HealthReplySchema = Type.Object({
  service: ServiceNameSchema,
  instanceId: Type.String(),
  version: Type.String(),
  startedAt: Type.String({ description: 'ISO-8601 start time' }),
  uptimeMs: Type.Number(),
  inFlight: Type.Integer({ minimum: 0, description: 'requests being handled right now' }),
  /** How the instance runs the processes it spawns (the wasm-runner: shell, stdio MCP servers). */
  sandbox: Type.Optional(SandboxStatusSchema),
});
/** One instance's health. */
export type HealthReply = Static<typeof HealthReplySchema>;

/** The payload of `system.status` (no fields required). */
export const SystemStatusRequestSchema = Type.Object({
  timeoutMs: Type.Optional(
    Type.Integer({ minimum: 50, maximum: 10000, description: 'how long to wait for instances; default 500' }),
  ),
});
/** Request of `system.status`. */
export type SystemStatusRequest = Static<typeof SystemStatusRequestSchema>;

/** One instance as seen by `system.status`. */
export const InstanceStatusSchema = Type.Object({
  instanceId: Type.String(),
  version: Type.String(),
  latencyMs: Type.Number(),
  uptimeMs: Type.Number(),
  inFlight: Type.Integer(),
  /** The instance's sandbox mode, when it spawns processes; `off` means shell and stdio MCP run unsandboxed. */
  sandbox: Type.Optional(SandboxStatusSchema),
});
/** An instance in a status report. */
export type InstanceStatus = Static<typeof InstanceStatusSchema>;

/** One service as seen by `system.status`: up when at least one instance answered in time. */
export const ServiceStatusSchema = Type.Object({
  service: ServiceNameSchema,
  state: Type.Union([Type.Literal('up'), Type.Literal('down')]),
  instances: Type.Array(InstanceStatusSchema),
});
/** A service in a status report. */
export type ServiceStatus = Static<typeof ServiceStatusSchema>;

/** The reply of `system.status`. */
export const SystemStatusSchema = Type.Object({
  checkedAt: Type.String(),
  waitedMs: Type.Number(),
  services: Type.Array(ServiceStatusSchema),
});
/** Reply of `system.status`. */
export type SystemStatus = Static<typeof SystemStatusSchema>;

/** Request of `system.ping`: a no-op round trip through the orchestrator into one instance of a service. */
export const SystemPingRequestSchema = Type.Object({
  service: Type.Optional(ServiceNameSchema),
  timeoutMs: Type.Optional(Type.Integer({ minimum: 1, maximum: 60000 })),
});
/** Request of `system.ping`. */
export type SystemPingRequest = Static<typeof SystemPingRequestSchema>;

/** Reply of `system.ping`: which instance answered. */
export const SystemPingReplySchema = Type.Object({
  service: ServiceNameSchema,
  instanceId: Type.String(),
});
/** Reply of `system.ping`. */
export type SystemPingReply = Static<typeof SystemPingReplySchema>;
