import { TurnCancelledError } from './errors/turn-cancelled-error.js';

/** One turn in progress; `end()` once it finished, whatever the outcome. */
export interface RunningTurn {
  readonly signal: AbortSignal;
  end(): void;
}

/**
 * The turns this process is running, by session, each with the signal that stops it. A cancel aborts
 * every turn of the session (the loop then finishes it as `aborted`, its tool calls cancelled); a
 * cancel of a session with no running turn does nothing.
 */
export class RunningTurns {
  private readonly bySession = new Map<string, Set<AbortController>>();

  /** Registers a turn; `parent` (a client that went away, a job's signal) stops it too. */
  begin(sessionId: string, parent?: AbortSignal): RunningTurn {
    const controller = new AbortController();
    const turns = this.bySession.get(sessionId) ?? new Set<AbortController>();
    turns.add(controller);
    this.bySession.set(sessionId, turns);
    const signal = parent ? AbortSignal.any([parent, controller.signal]) : controller.signal;
    return {
      signal,
      end: () => {
        turns.delete(controller);
        if (turns.size === 0 && this.bySession.get(sessionId) === turns) this.bySession.delete(sessionId);
      },
    };
  }

  isRunning(sessionId: string): boolean {
    return this.bySession.has(sessionId);
  }

  /** Stops the session's running turns; false when none was running here. */
  cancel(sessionId: string): boolean {
    const turns = this.bySession.get(sessionId);
    if (!turns?.size) return false;
    for (const controller of turns) controller.abort(new TurnCancelledError(sessionId));
    return true;
  }
}
