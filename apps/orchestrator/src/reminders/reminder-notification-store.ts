import { randomUUID } from 'node:crypto';
import type { PrismaClient } from '@talon/persistence';
import { WriteBatcher } from '@talon/service-runtime';

/** A reminder delivery to store. */
export interface NewReminderNotification {
  readonly jobId: string;
  readonly routineId: string | null;
  readonly sessionId: string | null;
  readonly text: string;
}

/** The stored notification of a delivery: its id and when it was first delivered. */
export interface StoredReminderNotification {
  readonly id: string;
  readonly deliveredAt: Date;
}

/**
 * Stores reminder deliveries, once per job: a job retried after a takeover gets back the notification
 * its first attempt stored. Deliveries of many jobs at once (a thousand routines due in the same
 * second) share one `INSERT … ON CONFLICT` statement instead of a round trip each.
 */
export class ReminderNotificationStore {
  private readonly batcher = new WriteBatcher<NewReminderNotification, StoredReminderNotification>((items) =>
    this.insert(items),
  );

  constructor(private readonly prisma: PrismaClient) {}

  /** Stores the delivery of a job (or returns the one stored for it before). */
  store(notification: NewReminderNotification): Promise<StoredReminderNotification> {
    return this.batcher.add(notification);
  }

  private async insert(items: NewReminderNotification[]): Promise<StoredReminderNotification[]> {
    // One row per job: `ON CONFLICT DO UPDATE` refuses to touch a row twice in one statement.
    const unique = [...new Map(items.map((item) => [item.jobId, item])).values()];
    const rows = unique.map((item) => ({
      id: randomUUID(),
      job_id: item.jobId,
      routine_id: item.routineId,
      session_id: item.sessionId,
      text: item.text,
    }));
    // The no-op update makes RETURNING give the existing row of a job stored before.
    const stored = await this.prisma.$queryRaw<Array<{ id: string; job_id: string; delivered_at: Date }>>`
      INSERT INTO reminder_notification (id, job_id, routine_id, session_id, text)
      SELECT r.id::uuid, r.job_id::uuid, r.routine_id::uuid, r.session_id::uuid, r.text
      FROM jsonb_to_recordset(${JSON.stringify(rows)}::jsonb) AS r(
        id text, job_id text, routine_id text, session_id text, text text)
      ON CONFLICT (job_id) DO UPDATE SET job_id = EXCLUDED.job_id
      RETURNING id, job_id, delivered_at`;
    const byJob = new Map(stored.map((row) => [row.job_id, { id: row.id, deliveredAt: row.delivered_at }]));
    return items.map((item) => {
      const row = byJob.get(item.jobId);
      if (!row) throw new Error(`the notification of job ${item.jobId} was not stored`);
      return row;
    });
  }
}
