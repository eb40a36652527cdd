import type { NatsConnection } from '@nats-io/transport-node';
import {
  SERVICE_NAMES,
  SUBJECTS,
  type Envelope,
  type HealthReply,
  type ServiceName,
  type ServiceStatus,
  type SystemStatus,
} from '@talon/contracts';

/** Default time a status check waits for instances. */
export const DEFAULT_STATUS_TIMEOUT_MS = 500;
/** After the first reply, how long to wait for more instances of the same service. */
const STALL_MS = 60;

async function probeService(
  connection: NatsConnection,
  service: ServiceName,
  timeoutMs: number,
): Promise<ServiceStatus> {
  const started = performance.now();
  const instances: ServiceStatus['instances'] = [];
  try {
    const replies = await connection.requestMany(SUBJECTS.health(service), undefined, {
      strategy: 'stall',
      stall: STALL_MS,
      maxWait: timeoutMs,
    });
    for await (const message of replies) {
      const latencyMs = Math.round((performance.now() - started) * 1000) / 1000;
      let reply: Envelope<HealthReply>;
      try {
        reply = message.json<Envelope<HealthReply>>();
      } catch {
        continue;
      }
      if (!reply.ok) continue;
      const { instanceId, version, uptimeMs, inFlight, sandbox } = reply.data;
      instances.push({ instanceId, version, latencyMs, uptimeMs, inFlight, ...(sandbox ? { sandbox } : {}) });
    }
  } catch {
    // No responders or a closed iterator both mean: nobody answered in time.
  }
  instances.sort((a, b) => a.instanceId.localeCompare(b.instanceId));
  return { service, state: instances.length > 0 ? 'up' : 'down', instances };
}

/**
 * Asks every service's health subject at once and reports what answered within `timeoutMs`.
 * A missing service shows as down after at most `timeoutMs`: never a hang.
 */
export async function collectSystemStatus(
  connection: NatsConnection,
  timeoutMs = DEFAULT_STATUS_TIMEOUT_MS,
  services: readonly ServiceName[] = SERVICE_NAMES,
): Promise<SystemStatus> {
  const started = performance.now();
  const results = await Promise.all(services.map((service) => probeService(connection, service, timeoutMs)));
  return {
    checkedAt: new Date().toISOString(),
    waitedMs: Math.round(performance.now() - started),
    services: results,
  };
}
