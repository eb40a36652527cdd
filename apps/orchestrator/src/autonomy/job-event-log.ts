import type { NatsConnection } from '@nats-io/transport-node';
import { SUBJECTS } from '@talon/contracts';
import { encodeJson, type JsonLogger } from '@talon/service-runtime';
import type { JobStore } from './job-store.js';

/**
 * Stores a job's events in order and publishes each on `talon.events.v1.job.<id>` once stored (with its
 * `seq`, so a follower can read the history with `jobs.events` and then the live stream without a gap
 * or a duplicate). Writes of one job are serialised; `live` events (text deltas) are only published.
 */
export class JobEventLog {
  private readonly chains = new Map<string, Promise<void>>();

  constructor(
    private readonly jobs: JobStore,
    private readonly connection: NatsConnection,
    private readonly logger: JsonLogger,
  ) {}

  record(jobId: string, type: string, data: Record<string, unknown> = {}): Promise<void> {
    const previous = this.chains.get(jobId) ?? Promise.resolve();
    const next = previous.then(async () => {
      try {
        const [stored] = await this.jobs.appendEvents(jobId, [{ type, data }]);
        if (stored) this.connection.publish(SUBJECTS.jobEvents(jobId), encodeJson(stored));
      } catch (error) {
        this.logger.write('warn', 'storing a job event failed', { jobId, type, error: String(error) });
      }
    });
    this.chains.set(jobId, next);
    void next.finally(() => {
      if (this.chains.get(jobId) === next) this.chains.delete(jobId);
    });
    return next;
  }

  /** Publishes without storing (text deltas of a running turn). */
  live(jobId: string, type: string, data: Record<string, unknown>): void {
    this.connection.publish(
      SUBJECTS.jobEvents(jobId),
      encodeJson({ ...data, jobId, type, at: new Date().toISOString() }),
    );
  }

  /** Waits until every event recorded so far for the job is stored. */
  async flush(jobId: string): Promise<void> {
    await this.chains.get(jobId);
  }
}
