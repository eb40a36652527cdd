import type { AgentEvent, AgentEventListener } from './agent-events.js';

/**
 * Turns a turn that reports through a listener into an async iterable of its events, for surfaces
 * that pull (gRPC server streams, SSE writers): `for await (const event of streamAgentEvents((emit) =>
 * runner.run({ ...input, onEvent: emit })))`. Ends after the run settles; rethrows if it rejected.
 */
export async function* streamAgentEvents(
  start: (emit: AgentEventListener) => Promise<unknown>,
): AsyncGenerator<AgentEvent> {
  const queue: AgentEvent[] = [];
  let wake: (() => void) | undefined;
  let done = false;
  let failure: { error: unknown } | undefined;
  const emit: AgentEventListener = (event) => {
    queue.push(event);
    wake?.();
  };
  start(emit).then(
    () => {
      done = true;
      wake?.();
    },
    (error: unknown) => {
      failure = { error };
      done = true;
      wake?.();
    },
  );
  let read = 0;
  for (;;) {
    while (read < queue.length) {
      yield queue[read++]!;
      if (read > 1024) {
        queue.splice(0, read);
        read = 0;
      }
    }
    if (done) break;
    await new Promise<void>((resolve) => (wake = resolve));
    wake = undefined;
  }
  if (failure !== undefined) throw failure.error;
}
