import { randomUUID } from 'node:crypto';
import { isFinalJobState } from '@talon/autonomy';
import {
  ERROR_CODES,
  type Job,
  type JobEvent,
  type JobState,
  type JobsCreateRequest,
} from '@talon/contracts';
import { TalonError } from '@talon/errors';
import { countFinishedJob } from './autonomy-metrics.js';
import type { JobActionValidator } from './job-action-validator.js';
import type { JobEventLog } from './job-event-log.js';
import type { JobStore } from './job-store.js';
import { toJobView } from './job-view.js';

/** Jobs as the API and the model's tools use them: create (validated, enqueued), list, get, cancel, events. */
export class JobService {
  constructor(
    private readonly jobs: JobStore,
    private readonly events: JobEventLog,
    private readonly actions: JobActionValidator,
    /** Wakes the runners; with a job id, asks whichever orchestrator runs it to stop. */
    private readonly notify: (message: { wake?: true; cancel?: string; by?: string }) => void,
  ) {}

  async create(request: JobsCreateRequest, createdBy: string): Promise<Job> {
    const id = randomUUID();
    await this.enqueue(id, request);
    await this.announce(id, createdBy, request.action.kind);
    return this.get(id);
  }

  /** Validates and queues a job under a chosen id, inside the caller's transaction (a hand run's approval). */
  async enqueue(
    id: string,
    request: JobsCreateRequest,
    db?: Parameters<JobStore['enqueue']>[1],
  ): Promise<void> {
    await this.actions.validate(request.action, request.policy);
    await this.jobs.enqueue(
      [
        {
          id,
          action: request.action,
          ...(request.input === undefined ? {} : { input: request.input }),
          policy: request.policy ?? {},
          limits: request.limits ?? {},
        },
      ],
      db,
    );
  }

  /** Records `job.created` and wakes the runners, once the job is committed. */
  async announce(id: string, createdBy: string, kind: string): Promise<void> {
    await this.events.record(id, 'job.created', { by: createdBy, kind });
    this.notify({ wake: true });
  }

  async get(id: string): Promise<Job> {
    const row = await this.jobs.get(id);
    if (!row) throw notFound(id);
    return toJobView(row);
  }

  async list(filter: { state?: JobState; routineId?: string; limit?: number }): Promise<Job[]> {
    return (await this.jobs.list(filter)).map(toJobView);
  }

  /**
   * Cancels a job: a pending one at once, a running or waiting one by asking its owner to stop (it
   * ends `cancelled` within a lease renewal at most). Idempotent: a finished job comes back unchanged.
   */
  async cancel(id: string, by: string): Promise<Job> {
    const before = await this.jobs.get(id);
    if (!before) throw notFound(id);
    if (isFinalJobState(before.status as JobState)) return toJobView(before);
    const after = await this.jobs.requestCancel(id);
    if (after?.status === 'cancelled' && before.status === 'pending') {
      countFinishedJob('cancelled');
      await this.events.record(id, 'job.finished', {
        state: 'cancelled',
        error: { code: 'CANCELLED', message: `cancelled by ${by} before it started` },
      });
    } else this.notify({ cancel: id, by });
    return toJobView(after ?? before);
  }

  async eventsOf(id: string, afterSeq?: number, limit?: number): Promise<JobEvent[]> {
    if (!(await this.jobs.get(id))) throw notFound(id);
    return this.jobs.events(id, afterSeq, limit);
  }
}

function notFound(id: string): TalonError {
  return new TalonError(ERROR_CODES.NOT_FOUND, `No job ${id}; list them with jobs.list.`, {
    details: { id },
  });
}
