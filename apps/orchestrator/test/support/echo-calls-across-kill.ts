import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import type { TalonApiClient } from '@talon/testing';

/**
 * Keeps `callers` concurrent `tools.call` echoes running for `runMs`, then calls `kill` and stops them;
 * returns the call ids that got a reply (ok or a typed error): the calls Talon promised something about.
 * A call left without a reply by the kill was never answered, so no promise was made for it.
 */
export async function echoCallsAcrossKill(
  api: TalonApiClient,
  kill: () => Promise<void>,
  { callers = 16, runMs = 1_500 } = {},
): Promise<string[]> {
  const answered: string[] = [];
  let stop = false;
  const running = Array.from({ length: callers }, async () => {
    while (!stop) {
      const callId = randomUUID();
      try {
        const reply = await api.call(
          'tools.call',
          { tool: 'echo', params: { message: callId }, callId },
          2_000,
        );
        if (reply.ok || reply.error) answered.push(callId);
      } catch {
        // No reply: the orchestrator died mid-call.
      }
    }
  });
  await sleep(runMs);
  await kill();
  stop = true;
  await Promise.all(running);
  return answered;
}
