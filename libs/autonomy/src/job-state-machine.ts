import { FINAL_JOB_STATES, type JobState } from '@talon/contracts';

/** Moves each state may make. `stuck` only ends in `cancelled` (the runner stops it) or a late outcome. */
const TRANSITIONS: Readonly<Record<JobState, readonly JobState[]>> = {
  pending: ['running', 'cancelled'],
  running: ['waiting_approval', 'completed', 'failed', 'cancelled', 'stuck', 'pending'],
  waiting_approval: ['running', 'completed', 'failed', 'cancelled', 'stuck', 'pending'],
  stuck: ['cancelled', 'failed'],
  completed: [],
  failed: [],
  cancelled: [],
};

/** Whether a job may go from `from` to `to` (`running → pending` is a retry after a lost lease). */
export function canTransition(from: JobState, to: JobState): boolean {
  return TRANSITIONS[from].includes(to);
}

/** Whether nothing will run for the job again. */
export function isFinalJobState(state: JobState): boolean {
  return FINAL_JOB_STATES.includes(state);
}

/** The states a job may be in to be cancelled (a cancel of a final job is a no-op that returns it). */
export const CANCELLABLE_JOB_STATES: readonly JobState[] = [
  'pending',
  'running',
  'waiting_approval',
  'stuck',
];

/** The states in which a job counts against a routine's `maxConcurrent`. */
export const UNFINISHED_JOB_STATES: readonly JobState[] = ['pending', 'running', 'waiting_approval', 'stuck'];

/** What happens to a job whose lease expired (its orchestrator died): retry while attempts remain. */
export function afterLostLease(attempt: number, maxAttempts: number): 'retry' | 'fail' {
  return attempt < maxAttempts ? 'retry' : 'fail';
}
