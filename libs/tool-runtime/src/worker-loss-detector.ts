/** Why a call was declared lost. */
export type WorkerLossReason =
  /** The instance's probe found no subscriber: its connection is gone (killed, crashed, drained out). */
  | 'gone'
  /** The instance answered no probe for `unresponsiveAfterMs` (hung, stopped, partitioned). */
  | 'unresponsive'
  /** The instance answered but no longer holds the call (it acknowledged and forgot it). */
  | 'not_held'
  /** No instance acknowledged the call within `ackTimeoutMs` (the message died with a worker). */
  | 'no_ack';

/** One call the detector gave up on. */
export interface LostCall {
  token: string;
  callId: string;
  instanceId?: string;
  reason: WorkerLossReason;
}

/** Options of the detector; times in ms. */
export interface WorkerLossDetectorOptions {
  /** How long a sent call may stay unacknowledged (normally microseconds; seconds on a starved machine). Default 5000. */
  ackTimeoutMs?: number;
  /** How long an instance holding calls may leave probes unanswered. Default 3000. */
  unresponsiveAfterMs?: number;
}

export const DEFAULT_ACK_TIMEOUT_MS = 5000;
export const DEFAULT_UNRESPONSIVE_AFTER_MS = 3000;

interface TrackedCall {
  callId: string;
  sentAt: number;
  instanceId?: string;
}

/**
 * Decides which in-flight calls lost their worker, from what the caller sees: the acknowledgement
 * naming the instance that took a call, and the answers to periodic probes of those instances. Knows
 * no transport and no clock of its own (every method takes `now`), so it is tested directly.
 * While paused (the caller's own connection is down) nothing is declared lost: silence then says
 * nothing about the workers, and every clock restarts on resume.
 */
export class WorkerLossDetector {
  private readonly calls = new Map<string, TrackedCall>();
  /** Instance id → when it was last heard from (ack or probe answer). */
  private readonly lastHeard = new Map<string, number>();
  private readonly ackTimeoutMs: number;
  private readonly unresponsiveAfterMs: number;
  private paused = false;

  constructor(options: WorkerLossDetectorOptions = {}) {
    this.ackTimeoutMs = options.ackTimeoutMs ?? DEFAULT_ACK_TIMEOUT_MS;
    this.unresponsiveAfterMs = options.unresponsiveAfterMs ?? DEFAULT_UNRESPONSIVE_AFTER_MS;
  }

  /** Calls being watched. */
  get size(): number {
    return this.calls.size;
  }

  /** A call was sent (`token` is unique per attempt; `callId` is what the worker knows it by). */
  track(token: string, callId: string, now: number): void {
    this.calls.set(token, { callId, sentAt: now });
  }

  /** An instance acknowledged the call: from now on its probes decide. */
  acknowledged(token: string, instanceId: string, now: number): void {
    const call = this.calls.get(token);
    if (!call) return;
    call.instanceId = instanceId;
    this.lastHeard.set(instanceId, now);
  }

  /** The call ended (answered, timed out, cancelled): forget it. */
  settle(token: string): void {
    const call = this.calls.get(token);
    if (!call) return;
    this.calls.delete(token);
    if (call.instanceId && !this.holdsAny(call.instanceId)) this.lastHeard.delete(call.instanceId);
  }

  /** Instances to probe now, each with the call ids it should still hold. */
  probeTargets(): Map<string, string[]> {
    const targets = new Map<string, string[]>();
    if (this.paused) return targets;
    for (const call of this.calls.values()) {
      if (!call.instanceId) continue;
      const ids = targets.get(call.instanceId) ?? [];
      ids.push(call.callId);
      targets.set(call.instanceId, ids);
    }
    return targets;
  }

  /**
   * A probe answer: the calls the probe asked about (`asked`) that the instance no longer holds are lost.
   * Calls acknowledged after the probe left were not asked about and wait for the next one.
   */
  probeAnswered(
    instanceId: string,
    asked: readonly string[],
    held: readonly string[],
    now: number,
  ): LostCall[] {
    this.lastHeard.set(instanceId, now);
    const holding = new Set(held);
    const askedSet = new Set(asked);
    return this.take(
      (call) => call.instanceId === instanceId && askedSet.has(call.callId) && !holding.has(call.callId),
      'not_held',
    );
  }

  /** The probe found no subscriber: every call of the instance is lost. */
  probeGone(instanceId: string): LostCall[] {
    if (this.paused) return [];
    return this.take((call) => call.instanceId === instanceId, 'gone');
  }

  /** The probe went unanswered: the instance's calls are lost once it has been silent long enough. */
  probeFailed(instanceId: string, now: number): LostCall[] {
    if (this.paused) return [];
    const heard = this.lastHeard.get(instanceId) ?? now;
    if (now - heard < this.unresponsiveAfterMs) return [];
    return this.take((call) => call.instanceId === instanceId, 'unresponsive');
  }

  /** Calls no instance acknowledged in time. */
  sweep(now: number): LostCall[] {
    if (this.paused) return [];
    return this.take((call) => !call.instanceId && now - call.sentAt >= this.ackTimeoutMs, 'no_ack');
  }

  /** Tokens of the calls no instance has acknowledged yet. */
  unacknowledged(): string[] {
    return [...this.calls].filter(([, call]) => !call.instanceId).map(([token]) => token);
  }

  /** The caller's connection dropped: declare nothing until {@link resume}. */
  pause(): void {
    this.paused = true;
  }

  /** The caller is connected again: every wait starts over from `now`. */
  resume(now: number): void {
    this.paused = false;
    for (const call of this.calls.values()) if (!call.instanceId) call.sentAt = now;
    for (const instanceId of this.lastHeard.keys()) this.lastHeard.set(instanceId, now);
  }

  private take(match: (call: TrackedCall) => boolean, reason: WorkerLossReason): LostCall[] {
    const lost: LostCall[] = [];
    for (const [token, call] of this.calls) {
      if (!match(call)) continue;
      lost.push({
        token,
        callId: call.callId,
        ...(call.instanceId ? { instanceId: call.instanceId } : {}),
        reason,
      });
    }
    for (const call of lost) this.settle(call.token);
    return lost;
  }

  private holdsAny(instanceId: string): boolean {
    for (const call of this.calls.values()) if (call.instanceId === instanceId) return true;
    return false;
  }
}
