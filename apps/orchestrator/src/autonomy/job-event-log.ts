import type { NatsConnection } from '@nats-io/transport-node';
import { SUBJECTS, type JobEvent } from '@talon/contracts';
import { isUniqueViolation } from '@talon/persistence';
import { encodeJson, type JsonLogger } from '@talon/service-runtime';
import type { JobStore } from './job-store.js';

/** Events wait at most this long before their batch is written. */
const FLUSH_DELAY_MS = 20;
/** A batch this large is written at once. */
const FLUSH_BATCH_SIZE = 500;

/** Writes of a batch whose seqs collided with another orchestrator's, at most. */
const MAX_ATTEMPTS = 5;

interface Pending {
  jobId: string;
  type: string;
  data: Record<string, unknown>;
  done: () => void;
}

/**
 * Stores job events and publishes each on `talon.events.v1.job.<id>` once stored (with its `seq`, so a
 * follower reads the history with `jobs.events` and then the live stream without a gap or a duplicate).
 * Events of all jobs are written in batches (one statement per 20 ms at most, one writer at a time, so
 * each job's seqs follow the order of `record`); `live` events (text deltas) are only published.
 */
export class JobEventLog {
  private queue: Pending[] = [];
  private writing: Promise<void> = Promise.resolve();
  private scheduled = false;

  constructor(
    private readonly jobs: JobStore,
    private readonly connection: NatsConnection,
    private readonly logger: JsonLogger,
  ) {}

  /** Queues an event; the promise settles once it is stored (or its write failed and was logged). */
  record(jobId: string, type: string, data: Record<string, unknown> = {}): Promise<void> {
    return new Promise((resolve) => {
      this.queue.push({ jobId, type, data, done: resolve });
      if (this.queue.length >= FLUSH_BATCH_SIZE) this.schedule(0);
      else this.schedule(FLUSH_DELAY_MS);
    });
  }

  /** Settles once every event queued so far is stored (so a final event written next comes last). */
  async flush(): Promise<void> {
    while (this.queue.length > 0 || this.scheduled) {
      if (this.queue.length > 0 && !this.scheduled) this.schedule(0);
      await new Promise((resolve) => setTimeout(resolve, 1));
    }
    await this.writing;
  }

  /** Publishes an event stored elsewhere (in the statement that ended its job). */
  publishStored(event: JobEvent): void {
    this.connection.publish(SUBJECTS.jobEvents(event.jobId), encodeJson(event));
  }

  /** Publishes without storing (text deltas of a running turn). */
  live(jobId: string, type: string, data: Record<string, unknown>): void {
    this.connection.publish(
      SUBJECTS.jobEvents(jobId),
      encodeJson({ ...data, jobId, type, at: new Date().toISOString() }),
    );
  }

  private schedule(delayMs: number): void {
    if (this.scheduled) return;
    this.scheduled = true;
    setTimeout(() => {
      this.scheduled = false;
      this.writing = this.writing.then(() => this.write());
    }, delayMs);
  }

  private async write(): Promise<void> {
    const batch = this.queue;
    this.queue = [];
    if (batch.length === 0) return;
    for (let attempt = 1; ; attempt++) {
      try {
        const stored = await this.jobs.appendEvents(batch);
        for (const event of stored)
          this.connection.publish(SUBJECTS.jobEvents(event.jobId), encodeJson(event));
        break;
      } catch (error) {
        // Another orchestrator stored an event of the same job at the same moment (its API took the
        // job, this one runs it): the seqs collided on the unique (job_id, seq); number them again.
        if (attempt < MAX_ATTEMPTS && isUniqueViolation(error)) continue;
        this.logger.write('warn', 'storing job events failed', { count: batch.length, error: String(error) });
        break;
      }
    }
    for (const entry of batch) entry.done();
    if (this.queue.length > 0) this.schedule(0);
  }
}
