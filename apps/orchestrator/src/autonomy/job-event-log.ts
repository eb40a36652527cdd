import type { NatsConnection } from '@nats-io/transport-node';
import { SUBJECTS, type JobEvent } from '@talon/contracts';
import { isUniqueViolation } from '@talon/persistence';
import { encodeJson, type JsonLogger } from '@talon/service-runtime';
import type { FinishedJob, JobEnd, JobStore, OwnedFinish } from './job-store.js';

/** Events wait at most this long before their batch is written (a job's end does not wait). */
const FLUSH_DELAY_MS = 20;
/** A batch this large is written at once. */
const FLUSH_BATCH_SIZE = 500;

/** Writes of a batch whose seqs collided with another orchestrator's, at most. */
const MAX_ATTEMPTS = 5;

interface PendingEvent {
  kind: 'event';
  jobId: string;
  type: string;
  data: Record<string, unknown>;
  done: () => void;
}

/** The end of a job, queued behind its events (so `job.finished` is numbered and published last). */
interface PendingEnd {
  kind: 'end';
  jobId: string;
  outcome: JobEnd;
  done: (finished: FinishedJob | undefined) => void;
  failed: (error: unknown) => void;
}

type Pending = PendingEvent | PendingEnd;

/**
 * Stores job events and publishes each on `talon.events.v1.job.<id>` once stored (with its `seq`, so a
 * follower reads the history with `jobs.events` and then the live stream without a gap or a duplicate).
 * Events of all jobs are written in batches (one statement per 20 ms at most, one writer at a time, so
 * each job's seqs follow the order of `record`); `live` events (text deltas) are only published.
 *
 * The end of a job this orchestrator runs ({@link finish}) goes through the same queue and the same
 * statement as the events queued before it: `job.finished` is numbered after all of them without
 * waiting for other jobs' events, and a thousand jobs ending in a second cost a few statements (and
 * commits) rather than two round trips each.
 */
export class JobEventLog {
  private queue: Pending[] = [];
  private writing: Promise<void> = Promise.resolve();
  /** When the scheduled write starts (epoch ms), if one is scheduled. */
  private scheduledAt?: number;
  private timer?: NodeJS.Timeout;

  constructor(
    private readonly jobs: JobStore,
    private readonly connection: NatsConnection,
    private readonly logger: JsonLogger,
    /** This orchestrator's instance id: the lease holder whose jobs {@link finish} ends. */
    private readonly owner: string,
  ) {}

  /** Queues an event; the promise settles once it is stored (or its write failed and was logged). */
  record(jobId: string, type: string, data: Record<string, unknown> = {}): Promise<void> {
    return new Promise((done) => this.enqueue({ kind: 'event', jobId, type, data, done }));
  }

  /**
   * Ends a job this orchestrator holds, with `job.finished` as its last event (see
   * {@link JobStore.storeEvents}), and publishes that event once stored. Settles with the job's routine
   * and final event, or `undefined` when the lease was lost and nothing was written.
   */
  finish(jobId: string, outcome: JobEnd): Promise<FinishedJob | undefined> {
    return new Promise((done, failed) => this.enqueue({ kind: 'end', jobId, outcome, done, failed }));
  }

  /** Publishes without storing (text deltas of a running turn). */
  live(jobId: string, type: string, data: Record<string, unknown>): void {
    this.connection.publish(
      SUBJECTS.jobEvents(jobId),
      encodeJson({ ...data, jobId, type, at: new Date().toISOString() }),
    );
  }

  private enqueue(entry: Pending): void {
    this.queue.push(entry);
    // A job's end is written at once: its run holds a concurrency slot until then.
    if (this.queue.length >= FLUSH_BATCH_SIZE || entry.kind === 'end') this.schedule(0);
    else this.schedule(FLUSH_DELAY_MS);
  }

  private schedule(delayMs: number): void {
    const at = Date.now() + delayMs;
    if (this.scheduledAt !== undefined && this.scheduledAt <= at) return;
    clearTimeout(this.timer);
    this.scheduledAt = at;
    this.timer = setTimeout(() => {
      this.scheduledAt = undefined;
      this.writing = this.writing.then(() => this.write());
    }, delayMs);
  }

  private async write(): Promise<void> {
    const batch = this.queue;
    this.queue = [];
    if (batch.length === 0) return;
    const events = batch.filter((entry): entry is PendingEvent => entry.kind === 'event');
    const ends = batch.filter((entry): entry is PendingEnd => entry.kind === 'end');
    try {
      const stored = await this.store(events, ends);
      for (const event of stored.events) this.publish(event);
      for (const entry of events) entry.done();
      this.settle(ends, stored.ends);
    } catch (error) {
      // One bad row (an unstorable result) must not cost the others: the events alone, then each end.
      try {
        const stored = await this.store(events, []);
        for (const event of stored.events) this.publish(event);
      } catch (eventsError) {
        this.logger.write('warn', 'storing job events failed', {
          count: events.length,
          error: String(eventsError),
        });
      }
      for (const entry of events) entry.done();
      if (ends.length > 0)
        this.logger.write('warn', 'ending jobs together failed; ending them one by one', {
          count: ends.length,
          error: String(error),
        });
      for (const entry of ends)
        await this.store([], [entry]).then(
          (stored) => this.settle([entry], stored.ends),
          (endError: unknown) => entry.failed(endError),
        );
    }
    if (this.queue.length > 0) this.schedule(0);
  }

  private async store(events: PendingEvent[], ends: PendingEnd[]): ReturnType<JobStore['storeEvents']> {
    const finishes: OwnedFinish[] = ends.map((entry) => ({
      id: entry.jobId,
      outcome: entry.outcome,
      finalEvent: {
        type: 'job.finished',
        data: {
          state: entry.outcome.state,
          ...(entry.outcome.error ? { error: entry.outcome.error } : {}),
        },
      },
    }));
    for (let attempt = 1; ; attempt++) {
      try {
        return await this.jobs.storeEvents(this.owner, events, finishes);
      } catch (error) {
        // Another orchestrator stored an event of the same job at the same moment (its API took the
        // job, this one runs it): the seqs collided on the unique (job_id, seq); number them again.
        if (attempt >= MAX_ATTEMPTS || !isUniqueViolation(error)) throw error;
      }
    }
  }

  private settle(entries: PendingEnd[], finished: Array<FinishedJob | undefined>): void {
    entries.forEach((entry, index) => {
      const result = finished[index];
      if (result) this.publish(result.event);
      entry.done(result);
    });
  }

  private publish(event: JobEvent): void {
    this.connection.publish(SUBJECTS.jobEvents(event.jobId), encodeJson(event));
  }
}
