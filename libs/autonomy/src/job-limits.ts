import type { JobLimits } from '@talon/contracts';

/** Default model calls of a job. */
export const DEFAULT_JOB_MAX_ITERATIONS = 8;
/** Default wall time of one attempt: 10 minutes. */
export const DEFAULT_JOB_MAX_WALL_TIME_MS = 600_000;
/** Default tool calls of a job. */
export const DEFAULT_JOB_MAX_TOOL_CALLS = 50;

/** A job's limits with every default filled in (`maxTokens` stays absent: no budget). */
export type ResolvedJobLimits = Required<Omit<JobLimits, 'maxTokens'>> & Pick<JobLimits, 'maxTokens'>;

/** Fills the defaults of a job's limits. */
export function resolveJobLimits(limits: JobLimits = {}): ResolvedJobLimits {
  return {
    maxIterations: limits.maxIterations ?? DEFAULT_JOB_MAX_ITERATIONS,
    maxWallTimeMs: limits.maxWallTimeMs ?? DEFAULT_JOB_MAX_WALL_TIME_MS,
    maxToolCalls: limits.maxToolCalls ?? DEFAULT_JOB_MAX_TOOL_CALLS,
    ...(limits.maxTokens === undefined ? {} : { maxTokens: limits.maxTokens }),
  };
}
