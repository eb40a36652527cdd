import type { JobState, RoutineFire } from '@talon/contracts';
import { talonMetrics } from '@talon/telemetry';
import type { ClaimedJob } from './job-store.js';

/** Counts fires once their transaction committed (a rolled-back tick claimed nothing). */
export function countFires(fires: readonly RoutineFire[]): void {
  const metrics = talonMetrics();
  for (const fire of fires) metrics.routineFires.inc({ source: fire.source, outcome: fire.outcome });
}

/** Observes how late each claimed routine job started after its slot. */
export function observeFireLag(claimed: readonly ClaimedJob[]): void {
  const metrics = talonMetrics();
  for (const { fireLag } of claimed)
    if (fireLag) metrics.routineFireLag.observe({ source: fireLag.source }, fireLag.seconds);
}

/** Counts a job this orchestrator brought to a final state. */
export function countFinishedJob(state: JobState): void {
  talonMetrics().jobsFinished.inc({ state });
}
