import { describe, expect, it } from '@jest/globals';
import { ApprovalQueue } from './approval-queue.js';
import { ApprovalAlreadyResolvedError } from './errors/approval-already-resolved-error.js';
import { ApprovalNotFoundError } from './errors/approval-not-found-error.js';
import { TooManyPendingApprovalsError } from './errors/too-many-pending-approvals-error.js';
import { AgentConfigError } from './errors/agent-config-error.js';
import { InMemoryApprovalStore } from './in-memory-approval-store.js';
import { InMemoryGrantStore } from './in-memory-grant-store.js';
import { PolicyEngine } from './policy-engine.js';
import type { ToolDefinition } from '@talon/contracts';

const ask = (sessionId: string, callId = 'call_1', tool = 'write_file') => ({
  sessionId,
  callId,
  tool,
  params: { path: 'a.txt' },
  reason: 'effect write_filesystem asks',
});

function setup(options: ConstructorParameters<typeof ApprovalQueue>[2] = {}) {
  const store = new InMemoryApprovalStore();
  const grants = new InMemoryGrantStore();
  return { store, grants, queue: new ApprovalQueue(store, grants, { pollIntervalMs: 0, ...options }) };
}

describe('ApprovalQueue', () => {
  it('ask → approve: the waiter gets the approved record', async () => {
    const { queue } = setup();
    const record = await queue.request(ask('s1'));
    expect(record.status).toBe('pending');
    expect(await queue.listPending('s1')).toHaveLength(1);
    const waiting = queue.waitFor(record.id);
    await queue.resolve(record.id, 'approve', 'person:ana');
    const settled = await waiting;
    expect(settled).toMatchObject({ status: 'approved', decision: 'approve', resolvedBy: 'person:ana' });
    expect(await queue.listPending('s1')).toHaveLength(0);
    expect(queue.waiting).toBe(0);
  });

  it('ask → deny: the waiter gets the denied record and a second decision is refused', async () => {
    const { queue } = setup();
    const record = await queue.request(ask('s1'));
    const waiting = queue.waitFor(record.id);
    await queue.resolve(record.id, 'deny', 'person:ana');
    expect((await waiting).status).toBe('denied');
    await expect(queue.resolve(record.id, 'approve', 'person:bob')).rejects.toBeInstanceOf(
      ApprovalAlreadyResolvedError,
    );
    await expect(queue.resolve('nope', 'approve', 'x')).rejects.toBeInstanceOf(ApprovalNotFoundError);
    await expect(queue.waitFor('nope')).rejects.toBeInstanceOf(ApprovalNotFoundError);
  });

  it('timeout counts as denied and is recorded as expired', async () => {
    const { queue, store } = setup({ timeoutMs: 40 });
    const record = await queue.request(ask('s1'));
    const started = Date.now();
    const settled = await queue.waitFor(record.id);
    expect(Date.now() - started).toBeGreaterThanOrEqual(30);
    expect(settled).toMatchObject({ status: 'expired', decision: 'expire', resolvedBy: 'system:timeout' });
    expect((await store.get(record.id))!.status).toBe('expired');
    await expect(queue.resolve(record.id, 'approve', 'late')).rejects.toBeInstanceOf(
      ApprovalAlreadyResolvedError,
    );
  });

  it('expires even when its timer fires before the clock reaches the deadline', async () => {
    let behindMs = 0;
    const { queue } = setup({ timeoutMs: 40, now: () => Date.now() - behindMs });
    const record = await queue.request(ask('s1'));
    const settled = queue.waitFor(record.id);
    // The wall clock steps back after the timer is armed: when it fires, the deadline is still ahead.
    await new Promise((resolve) => setTimeout(resolve, 5));
    behindMs = 30;
    const outcome = await Promise.race([
      settled,
      new Promise<'still waiting'>((resolve) => setTimeout(() => resolve('still waiting'), 1_000)),
    ]);
    expect(outcome).toMatchObject({ status: 'expired' });
  });

  it('approve_always adds an allow grant for that tool in that session only', async () => {
    const { queue, grants } = setup();
    const policy = new PolicyEngine();
    const http: ToolDefinition = {
      name: 'http',
      description: '',
      parameters: {},
      effects: ['network', 'use_secret'],
      approval: 'unless_auto_approved',
      timeoutMs: 1000,
      domain: 'orchestrator',
      source: 'builtin',
      sensitiveParams: ['headers.*'],
      idempotent: false,
    };
    expect(policy.decide({ tool: http, grants: await grants.get('s1') }).action).toBe('ask');
    const record = await queue.request(ask('s1', 'c1', 'http'));
    await queue.resolve(record.id, 'approve_always', 'person:ana');
    expect(policy.decide({ tool: http, grants: await grants.get('s1') })).toMatchObject({
      action: 'allow',
      source: 'tool_grant',
    });
    expect(policy.decide({ tool: http, grants: await grants.get('s2') }).action).toBe('ask');
  });

  it('refuses the 6th pending approval of a session, not of another session', async () => {
    const { queue } = setup();
    for (let index = 0; index < 5; index++) await queue.request(ask('s1', `c${index}`));
    const sixth = queue.request(ask('s1', 'c5'));
    await expect(sixth).rejects.toBeInstanceOf(TooManyPendingApprovalsError);
    await expect(sixth).rejects.toMatchObject({ code: 'RATE_LIMITED', details: { limit: 5 } });
    await expect(queue.request(ask('s2'))).resolves.toMatchObject({ status: 'pending' });
    const [first] = await queue.listPending('s1');
    await queue.resolve(first!.id, 'deny', 'p');
    await expect(queue.request(ask('s1', 'c6'))).resolves.toMatchObject({ status: 'pending' });
  });

  it('waitFor after a restart: a fresh queue over the same store, resolved by the other instance', async () => {
    const store = new InMemoryApprovalStore();
    const grants = new InMemoryGrantStore();
    const before = new ApprovalQueue(store, grants, { pollIntervalMs: 0 });
    const record = await before.request(ask('s1'));
    // "Restart": a new queue; another orchestrator (the old one here) resolves and notifies.
    const after = new ApprovalQueue(store, grants, { pollIntervalMs: 0 });
    const waiting = after.waitFor(record.id);
    await before.resolve(record.id, 'approve', 'person:ana');
    await after.onResolved(record.id);
    expect((await waiting).status).toBe('approved');
  });

  it('waitFor after a restart wakes by polling when nobody notifies', async () => {
    const store = new InMemoryApprovalStore();
    const grants = new InMemoryGrantStore();
    const other = new ApprovalQueue(store, grants, { pollIntervalMs: 0 });
    const record = await other.request(ask('s1'));
    const restarted = new ApprovalQueue(store, grants, { pollIntervalMs: 10 });
    const waiting = restarted.waitFor(record.id);
    setTimeout(() => void other.resolve(record.id, 'deny', 'person:bob'), 20);
    expect(await waiting).toMatchObject({ status: 'denied', resolvedBy: 'person:bob' });
    expect(restarted.waiting).toBe(0);
  });

  it('keeps the original deadline across a restart and expires overdue ones at start', async () => {
    let now = 1_000_000;
    const store = new InMemoryApprovalStore();
    const grants = new InMemoryGrantStore();
    const before = new ApprovalQueue(store, grants, { pollIntervalMs: 0, timeoutMs: 60_000, now: () => now });
    const overdue = await before.request(ask('s1', 'c1'));
    const fresh = await before.request({ ...ask('s1', 'c2'), timeoutMs: 120_000 });
    now += 90_000;
    const after = new ApprovalQueue(store, grants, { pollIntervalMs: 0, now: () => now });
    const expired = await after.expireDue();
    expect(expired.map((record) => record.id)).toEqual([overdue.id]);
    expect((await after.waitFor(overdue.id)).status).toBe('expired');
    expect((await after.get(fresh.id))!.status).toBe('pending');
  });

  it('abort leaves the approval pending for a later wait', async () => {
    const { queue } = setup();
    const record = await queue.request(ask('s1'));
    const controller = new AbortController();
    const waiting = queue.waitFor(record.id, { signal: controller.signal });
    controller.abort(new Error('stopped'));
    await expect(waiting).rejects.toThrow('stopped');
    expect((await queue.get(record.id))!.status).toBe('pending');
    expect(queue.waiting).toBe(0);
  });

  it('finds the approval of a call and validates its options', async () => {
    const { queue } = setup();
    const record = await queue.request(ask('s1', 'call_9'));
    expect((await queue.findByCall('s1', 'call_9'))!.id).toBe(record.id);
    expect(await queue.findByCall('s2', 'call_9')).toBeUndefined();
    expect(() => setup({ timeoutMs: 0 })).toThrow(AgentConfigError);
    expect(() => setup({ maxPendingPerSession: -1 })).toThrow(/maxPendingPerSession/);
  });
});
