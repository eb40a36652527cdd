import {
  ERROR_CODES,
  type ToolApprovalAssessment,
  type ToolDefinition,
  type ToolsCallReply,
} from '@talon/contracts';
import { TalonError } from '@talon/errors';
import type { LlmToolCall, LlmToolResultMessage } from '@talon/llm';
import { redactParams } from '@talon/tool-runtime';
import { ATTR, inSpan, recordFailure } from '@talon/telemetry';
import type { AgentEventListener, SubtaskOrigin } from './agent-events.js';
import { EXECUTE_SKILL_TOOL } from './execute-skill-tool.js';
import type { ApprovalQueue } from './approval-queue.js';
import type { ApprovalRecord } from './approval-store.js';
import { explainedReason } from './explained-reason.js';
import type { GrantStore } from './grant-store.js';
import type { PolicyDecision, PolicyEngine } from './policy-engine.js';
import { summarizeSandbox } from './sandbox-summary.js';
import type { SessionGrants } from './session-grants.js';
import type { ToolCaller } from './tool-caller.js';
import type { ToolSource } from './tool-source.js';
import type { TurnCeiling } from './turn-ceiling.js';
import type { ToolCallClaimStore } from './tool-call-claim-store.js';
import type { TurnFence } from './turn-lease-store.js';
import { TurnLeaseLostError } from './errors/turn-lease-lost-error.js';
import { interruptedOutcome } from './interrupted-call.js';

/** How one tool call ended, as the model will read it. */
export interface ToolCallOutcome {
  readonly callId: string;
  readonly tool: string;
  readonly ok: boolean;
  /** The text of the tool result message (the wrapped output, or the error). */
  readonly content: string;
  readonly code?: string;
  readonly reply?: ToolsCallReply;
}

/** The images of a reply, for the tool result message (audio stays a placeholder in the text). */
export function replyImages(reply: ToolsCallReply | undefined): LlmToolResultMessage['images'] {
  const images = (reply?.media ?? [])
    .filter((item) => item.type === 'image')
    .map((item) => ({ mimeType: item.mimeType, data: item.data }));
  return images.length > 0 ? images : undefined;
}

/** Who and what a batch of calls runs for. */
export interface ToolCallScope {
  readonly sessionId: string;
  readonly turnId: string;
  readonly actor: string;
  readonly autonomous: boolean;
  readonly ceiling?: TurnCeiling;
  readonly signal?: AbortSignal;
  readonly emit: AgentEventListener;
  /** Tools pre-approved by an active Trusted skill's `allowed-tools`, with the skill's name. */
  readonly preApprovals?: ReadonlyMap<string, string>;
  /** Set inside an `execute_skill` sub-task: its depth and the skills running above it. */
  readonly task?: SkillTaskContext;
  /** The calling turn's token count, to which an `execute_skill` sub-task adds its own. */
  readonly usage?: { inputTokens: number; outputTokens: number };
  /** The turn's owner: with claims, each call is claimed under it before dispatch (fenced by its lease). */
  readonly fence?: TurnFence;
  /**
   * The write of the assistant message that holds the batch's calls, when it runs beside the batch's policy
   * reads: nothing is claimed, asked or refused before it is in the log.
   */
  readonly logged?: Promise<void>;
}

/** Where a sub-task sits: how deep, which skills run above it (the recursion check), what it came from. */
export interface SkillTaskContext {
  readonly depth: number;
  readonly chain: readonly string[];
  readonly origin: SubtaskOrigin;
}

/** Runs `execute_skill` calls (the {@link TurnRunner} itself, which can start a nested turn). */
export interface SkillTaskHost {
  runSkillTask(call: LlmToolCall, scope: ToolCallScope): Promise<ToolCallOutcome>;
}

/** The collaborators of a {@link ToolCallExecutor}. */
export interface ToolCallExecutorDeps {
  readonly policy: PolicyEngine;
  readonly approvals: ApprovalQueue;
  readonly grants: GrantStore;
  readonly tools: ToolSource;
  readonly caller: ToolCaller;
  /** Runs `execute_skill`; without it the call goes to the {@link ToolCaller} like any other. */
  readonly subtasks?: SkillTaskHost;
  /** Claims each call of a fenced scope once before it is dispatched. */
  readonly claims?: ToolCallClaimStore;
}

/**
 * Runs the model's tool calls through policy, approvals and the {@link ToolCaller}: refused calls become
 * error results the model sees; several calls run in parallel when none needs asking, one by one
 * otherwise (so a person sees one question at a time and an "always" answer applies to the next call).
 */
export class ToolCallExecutor {
  constructor(private readonly deps: ToolCallExecutorDeps) {}

  /** Runs a batch; outcomes come back in call order. */
  async runBatch(calls: readonly LlmToolCall[], scope: ToolCallScope): Promise<ToolCallOutcome[]> {
    const catalog = indexCatalog(this.deps.tools.list());
    let grants = await this.deps.grants.get(scope.sessionId);
    // Validate before deciding: an invalid call is refused with its own error and nobody is asked.
    const rejections = calls.map((call) => (catalog.has(call.name) ? this.check(call) : undefined));
    // The tool's own verdict for these params, from the domain that runs it (the shell parses the command).
    const assessments = await Promise.all(
      calls.map((call, index) =>
        catalog.has(call.name) && !rejections[index]
          ? this.deps.caller.assessApproval?.({ tool: call.name, params: call.arguments })
          : undefined,
      ),
    );
    const decisions = calls.map((call, index) =>
      rejections[index]
        ? undefined
        : this.decide(call, catalog.get(call.name), grants, scope, false, assessments[index]),
    );
    await scope.logged;
    if (!decisions.some((decision) => decision?.action === 'ask')) {
      // Every call that will run is claimed in one statement before any of them is dispatched.
      const claimed = await this.claim(
        calls.filter((_call, index) => decisions[index]?.action === 'allow' && !rejections[index]),
        scope,
      );
      return Promise.all(
        calls.map((call, index) =>
          this.settle(call, catalog.get(call.name), decisions[index], scope, rejections[index], claimed),
        ),
      );
    }
    const outcomes: ToolCallOutcome[] = [];
    for (const [index, call] of calls.entries()) {
      scope.signal?.throwIfAborted();
      const definition = catalog.get(call.name);
      const rejection = rejections[index];
      if (rejection) {
        outcomes.push(this.refuse(call, scope, rejection.code, rejection.message));
        continue;
      }
      let decision = decisions[index];
      if (index > 0 && decision?.action === 'ask') {
        // An "always" answer to an earlier call of this batch may have lifted this one.
        grants = await this.deps.grants.get(scope.sessionId);
        decision = this.decide(call, definition, grants, scope, false, assessments[index]);
      }
      outcomes.push(
        decision?.action === 'ask'
          ? await this.askThenRun(call, definition!, decision, scope, assessments[index])
          : await this.settle(call, definition, decision, scope),
      );
    }
    return outcomes;
  }

  /**
   * Finishes a call whose approval was requested before a restart: waits for the stored decision,
   * then runs or refuses. Without an approval the call goes through the policy afresh.
   */
  async resume(
    call: LlmToolCall,
    approval: ApprovalRecord | undefined,
    scope: ToolCallScope,
  ): Promise<ToolCallOutcome> {
    if (approval === undefined) return (await this.runBatch([call], scope))[0]!;
    if (approval.status === 'pending') this.announce(approval, scope);
    return this.awaitDecision(call, approval, scope);
  }

  /**
   * The result of a call that was started but never finished (see {@link interruptedOutcome}); announced
   * as a failed `tool_call_finished` with code INTERRUPTED.
   */
  interrupted(call: LlmToolCall, scope: ToolCallScope): ToolCallOutcome {
    const outcome = interruptedOutcome(call, this.listed(call.name)?.idempotent ?? false);
    scope.emit({
      type: 'tool_call_finished',
      sessionId: scope.sessionId,
      turnId: scope.turnId,
      callId: call.id,
      tool: call.name,
      ok: false,
      code: outcome.code!,
      message: JSON.parse(outcome.content).error.message as string,
      durationMs: 0,
    });
    return outcome;
  }

  /**
   * Claims calls before they are dispatched (`undefined` without claims or a fence). Throws
   * {@link TurnLeaseLostError} when the turn's lease is gone; a call missing from the set was claimed
   * before, by this turn's earlier owner.
   */
  private async claim(
    calls: readonly LlmToolCall[],
    scope: ToolCallScope,
  ): Promise<ReadonlySet<string> | undefined> {
    if (this.deps.claims === undefined || scope.fence === undefined || calls.length === 0) return undefined;
    const result = await this.deps.claims.claim(
      scope.sessionId,
      scope.turnId,
      calls.map((call) => ({ callId: call.id, tool: call.name })),
      scope.fence,
    );
    if (!result.held) throw new TurnLeaseLostError(scope.sessionId, scope.fence.owner);
    return result.claimed;
  }

  private decide(
    call: LlmToolCall,
    definition: ToolDefinition | undefined,
    grants: SessionGrants,
    scope: ToolCallScope,
    callApproved: boolean,
    assessment?: ToolApprovalAssessment,
  ): PolicyDecision | undefined {
    if (definition === undefined) return undefined;
    return inSpan(
      'talon.policy.decide',
      { attributes: { [ATTR.genAiToolName]: call.name, [ATTR.callId]: call.id } },
      (span) => {
        const decision = this.decideNow(call, definition, grants, scope, callApproved, assessment);
        span.setAttribute(ATTR.policyAction, decision.action);
        span.setAttribute(ATTR.policySource, decision.source);
        return decision;
      },
    );
  }

  private decideNow(
    call: LlmToolCall,
    definition: ToolDefinition,
    grants: SessionGrants,
    scope: ToolCallScope,
    callApproved: boolean,
    assessment?: ToolApprovalAssessment,
  ): PolicyDecision {
    return this.deps.policy.decide({
      tool: definition,
      requirement: assessment?.approval ?? this.deps.tools.approvalFor?.(call.name, call.arguments),
      grants,
      ceiling: scope.ceiling,
      autonomous: scope.autonomous,
      callApproved,
      preApprovedBy: scope.preApprovals?.get(call.name),
    });
  }

  /** The typed error a call would fail with before it runs (unknown tool, limits, schema), if any. */
  private check(call: LlmToolCall): TalonError | undefined {
    try {
      this.deps.caller.check?.({ tool: call.name, params: call.arguments });
      return undefined;
    } catch (error) {
      if (!TalonError.isInstance(error)) throw error;
      return error;
    }
  }

  private async settle(
    call: LlmToolCall,
    definition: ToolDefinition | undefined,
    decision: PolicyDecision | undefined,
    scope: ToolCallScope,
    rejection?: TalonError,
    claimed?: ReadonlySet<string>,
  ): Promise<ToolCallOutcome> {
    if (rejection) return this.refuse(call, scope, rejection.code, rejection.message);
    if (definition === undefined || decision === undefined) {
      return this.refuse(
        call,
        scope,
        ERROR_CODES.UNKNOWN_TOOL,
        `No tool named "${call.name}" is available; call one of the tools offered.`,
      );
    }
    if (decision.action === 'deny')
      return this.refuse(
        call,
        scope,
        ERROR_CODES.POLICY_DENIED,
        `Refused by policy: ${decision.reason}.`,
        decision,
      );
    return this.invoke(call, scope, decision, claimed);
  }

  private async askThenRun(
    call: LlmToolCall,
    definition: ToolDefinition,
    decision: PolicyDecision,
    scope: ToolCallScope,
    assessment?: ToolApprovalAssessment,
  ): Promise<ToolCallOutcome> {
    let approval: ApprovalRecord;
    try {
      approval = await this.deps.approvals.request({
        sessionId: scope.sessionId,
        turnId: scope.turnId,
        callId: call.id,
        tool: call.name,
        params: redactParams(call.arguments, definition.sensitiveParams),
        // The person deciding sees why it asks, every program it runs, and what its process may touch.
        reason: definition.sandbox
          ? `${explainedReason(decision.reason, assessment)}; ${summarizeSandbox(definition.sandbox, call.arguments)}`
          : explainedReason(decision.reason, assessment),
      });
    } catch (error) {
      if (!TalonError.isInstance(error)) throw error;
      return this.refuse(call, scope, error.code, error.message, decision);
    }
    this.announce(approval, scope);
    return this.awaitDecision(call, approval, scope);
  }

  /** The tool as the catalog lists it now. */
  private listed(name: string): ToolDefinition | undefined {
    return this.deps.tools.list().find((tool) => tool.name === name);
  }

  /** Tells clients a call waits for a decision (again, after a restart, so they can ask the person). */
  private announce(approval: ApprovalRecord, scope: ToolCallScope): void {
    scope.emit({
      type: 'approval_requested',
      sessionId: scope.sessionId,
      turnId: scope.turnId,
      approvalId: approval.id,
      callId: approval.callId,
      tool: approval.tool,
      params: approval.params,
      reason: approval.reason,
      expiresAt: approval.expiresAt,
    });
  }

  private async awaitDecision(
    call: LlmToolCall,
    approval: ApprovalRecord,
    scope: ToolCallScope,
  ): Promise<ToolCallOutcome> {
    // Its own span: the time a person took to decide.
    const settled = await inSpan(
      'talon.approval.wait',
      {
        attributes: {
          [ATTR.approvalId]: approval.id,
          [ATTR.genAiToolName]: call.name,
          [ATTR.callId]: call.id,
        },
      },
      async (span) => {
        const record = await this.deps.approvals.waitFor(approval.id, { signal: scope.signal });
        span.setAttribute(ATTR.approvalDecision, record.decision ?? 'expire');
        return record;
      },
    );
    const approved = settled.status === 'approved';
    scope.emit({
      type: 'approval_resolved',
      sessionId: scope.sessionId,
      turnId: scope.turnId,
      approvalId: settled.id,
      callId: call.id,
      decision: settled.decision ?? 'expire',
      approved,
      ...(settled.resolvedBy === undefined ? {} : { resolvedBy: settled.resolvedBy }),
    });
    if (!approved) {
      const why =
        settled.status === 'expired'
          ? 'no decision arrived before the approval expired'
          : `denied by ${settled.resolvedBy ?? 'a person'}`;
      return this.refuse(
        call,
        scope,
        ERROR_CODES.POLICY_DENIED,
        `The call was not approved: ${why}. Do not retry it unless asked.`,
      );
    }
    // Re-check with the approval in hand: a deny grant or the ceiling still wins over a person's yes.
    // The tool as listed now: the catalog may have changed (or, after a restart, filled) while a person
    // decided.
    const grants = await this.deps.grants.get(scope.sessionId);
    const current = this.listed(call.name);
    return this.settle(call, current, this.decide(call, current, grants, scope, true), scope);
  }

  /** One tool call the policy let through, as a span `execute_tool <name>` with the verdict on it. */
  private invoke(
    call: LlmToolCall,
    scope: ToolCallScope,
    decision: PolicyDecision,
    claimed?: ReadonlySet<string>,
  ): Promise<ToolCallOutcome> {
    return inSpan(
      `execute_tool ${call.name}`,
      {
        attributes: {
          [ATTR.genAiOperation]: 'execute_tool',
          [ATTR.genAiToolName]: call.name,
          [ATTR.genAiToolCallId]: call.id,
          [ATTR.callId]: call.id,
          [ATTR.sessionId]: scope.sessionId,
          [ATTR.policyAction]: decision.action,
          [ATTR.policySource]: decision.source,
        },
      },
      async (span) => {
        const outcome = await this.invokeNow(call, scope, decision, claimed);
        if (!outcome.ok) recordFailure(span, { code: outcome.code });
        return outcome;
      },
    );
  }

  private async invokeNow(
    call: LlmToolCall,
    scope: ToolCallScope,
    decision: PolicyDecision,
    claimed?: ReadonlySet<string>,
  ): Promise<ToolCallOutcome> {
    const { sessionId, turnId } = scope;
    const mine = claimed ?? (await this.claim([call], scope));
    // Claimed before by this turn's earlier owner: it may have run, so it is never dispatched again.
    if (mine !== undefined && !mine.has(call.id)) return this.interrupted(call, scope);
    scope.emit({
      type: 'tool_call_started',
      sessionId,
      turnId,
      callId: call.id,
      tool: call.name,
      params: call.arguments,
    });
    const started = performance.now();
    const policy = policyOf(decision, scope, call.name);
    if (this.deps.subtasks !== undefined && call.name === EXECUTE_SKILL_TOOL) {
      const outcome = await this.deps.subtasks.runSkillTask(call, scope);
      scope.emit({
        type: 'tool_call_finished',
        sessionId,
        turnId,
        callId: call.id,
        tool: call.name,
        ok: outcome.ok,
        ...(outcome.ok ? {} : { code: outcome.code, message: outcome.content }),
        durationMs: performance.now() - started,
        policy,
      });
      return outcome;
    }
    try {
      const reply = await this.deps.caller.call({
        tool: call.name,
        params: call.arguments,
        sessionId,
        callId: call.id,
        actor: scope.actor,
        signal: scope.signal,
      });
      scope.emit({
        type: 'tool_call_finished',
        sessionId,
        turnId,
        callId: call.id,
        tool: call.name,
        ok: true,
        durationMs: performance.now() - started,
        policy,
      });
      return { callId: call.id, tool: call.name, ok: true, content: reply.text, reply };
    } catch (error) {
      if (scope.signal?.aborted) throw scope.signal.reason;
      const code = TalonError.isInstance(error) ? error.code : ERROR_CODES.INTERNAL;
      const message = TalonError.isInstance(error)
        ? error.message
        : 'The tool failed with an unexpected error.';
      scope.emit({
        type: 'tool_call_finished',
        sessionId,
        turnId,
        callId: call.id,
        tool: call.name,
        ok: false,
        code,
        message,
        durationMs: performance.now() - started,
        policy,
      });
      return { callId: call.id, tool: call.name, ok: false, code, content: errorContent(code, message) };
    }
  }

  private refuse(
    call: LlmToolCall,
    scope: ToolCallScope,
    code: string,
    message: string,
    decision?: PolicyDecision,
  ): ToolCallOutcome {
    inSpan(
      `execute_tool ${call.name}`,
      {
        attributes: {
          [ATTR.genAiOperation]: 'execute_tool',
          [ATTR.genAiToolName]: call.name,
          [ATTR.callId]: call.id,
          ...(decision ? { [ATTR.policyAction]: decision.action, [ATTR.policySource]: decision.source } : {}),
        },
      },
      (span) => recordFailure(span, { code }),
    );
    scope.emit({
      type: 'tool_call_finished',
      sessionId: scope.sessionId,
      turnId: scope.turnId,
      callId: call.id,
      tool: call.name,
      ok: false,
      code,
      message,
      durationMs: 0,
      ...(decision === undefined ? {} : { policy: policyOf(decision, scope, call.name) }),
    });
    return { callId: call.id, tool: call.name, ok: false, code, content: errorContent(code, message) };
  }
}

/** The verdict as events carry it; a skill pre-approval names the skill. */
function policyOf(
  decision: PolicyDecision,
  scope: ToolCallScope,
  tool: string,
): { action: PolicyDecision['action']; reason: string; source: string; preApprovedBy?: string } {
  const skill = decision.source === 'skill_pre_approval' ? scope.preApprovals?.get(tool) : undefined;
  return {
    action: decision.action,
    reason: decision.reason,
    source: decision.source,
    ...(skill === undefined ? {} : { preApprovedBy: skill }),
  };
}

/** The tool result text of a failed or refused call. */
export function errorContent(code: string, message: string): string {
  return `Error (${code}): ${message}`;
}

function indexCatalog(tools: readonly ToolDefinition[]): Map<string, ToolDefinition> {
  const map = new Map<string, ToolDefinition>();
  for (const tool of tools) map.set(tool.name, tool);
  return map;
}
