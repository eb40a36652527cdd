import { randomUUID } from 'node:crypto';
import { ERROR_CODES, type ActiveSkill, type SelectResult, type ToolDefinition } from '@talon/contracts';
import { TalonError } from '@talon/errors';
import type { LlmMessage, LlmToolCall } from '@talon/llm';
import type { AgentEvent, AgentEventListener, TurnFinishReason } from './agent-events.js';
import { AgentConfigError } from './errors/agent-config-error.js';
import { SessionBusyError } from './errors/session-busy-error.js';
import { TurnLeaseLostError } from './errors/turn-lease-lost-error.js';
import type { HeldTurnLease } from './turn-lease-keeper.js';
import type { TurnFence } from './turn-lease-store.js';
import { callModel } from './model-call.js';
import { ATTR, inSpan, recordFailure, type Span } from '@talon/telemetry';
import { PolicyEngine } from './policy-engine.js';
import { buildSystemPrompt } from './system-prompt-builder.js';
import { NO_PRE_APPROVALS, skillPreApprovals } from './skill-pre-approvals.js';
import { limitToDeclared, readSkillTaskCall, skillTaskState } from './skill-task.js';
import type { TurnState } from './turn-state.js';
import { SkillTaskLimitError } from './errors/skill-task-limit-error.js';
import {
  errorContent,
  replyImages,
  ToolCallExecutor,
  type SkillTaskHost,
  type ToolCallOutcome,
  type ToolCallScope,
} from './tool-call-executor.js';
import { ceilingFromAttenuation, type TurnCeiling } from './turn-ceiling.js';
import { findInterruptedTurn } from './turn-history.js';
import { TurnClock } from './turn-clock.js';
import {
  DEFAULT_MAX_ITERATIONS,
  DEFAULT_SKILL_TASK_OPTIONS,
  type SkillTaskOptions,
  type DirectToolCallInput,
  type ResumeInput,
  type TurnInput,
  type TurnResult,
  type TurnRunnerDeps,
  type TurnRunnerOptions,
} from './turn-options.js';

/** What the skill service answered for a turn's message, or why it could not. */
type SkillSelection = { selected: SelectResult } | { error: unknown };

/** The tool through which the model loads a skill (see {@link TurnRunner.adoptLoadedSkills}). */
export const SKILL_LOAD_TOOL = 'skill_load';

/**
 * The agent loop. Per user message: select skills, then up to `maxIterations` times: read the catalog,
 * attenuate it, call the model with the visible tools, run its tool calls through policy, approvals
 * and the {@link ToolCaller}, feed the results back; stop on a final answer. Every message is appended
 * to the {@link SessionStore} as it happens, so {@link resumeTurn} can finish a turn after a restart.
 */
export class TurnRunner implements SkillTaskHost {
  private readonly executor: ToolCallExecutor;
  private readonly maxIterations: number;
  private readonly skillTasks: Required<SkillTaskOptions>;
  /** Sessions with a turn in flight in this process; a second message is refused, not interleaved. */
  private readonly busy = new Set<string>();
  /** The fence of turns that take no lease: tool calls are still claimed once, under this owner. */
  private readonly unleasedFence: TurnFence;

  constructor(
    private readonly deps: TurnRunnerDeps,
    private readonly options: TurnRunnerOptions = {},
  ) {
    this.maxIterations = options.maxIterations ?? DEFAULT_MAX_ITERATIONS;
    if (!Number.isInteger(this.maxIterations) || this.maxIterations < 1)
      throw new AgentConfigError(`maxIterations must be a positive integer (got ${options.maxIterations})`);
    this.skillTasks = { ...DEFAULT_SKILL_TASK_OPTIONS, ...options.skillTasks };
    this.unleasedFence = { owner: deps.leases?.owner ?? 'turn-runner', leased: false };
    this.executor = new ToolCallExecutor({
      ...deps,
      policy: deps.policy ?? new PolicyEngine(),
      subtasks: this,
    });
  }

  /**
   * Answers one user message. Never throws for model, tool or abort failures (see `reason`); throws
   * {@link SessionBusyError} when the session already has a turn running in this runner.
   */
  async run(input: TurnInput): Promise<TurnResult> {
    const turnId = input.turnId ?? randomUUID();
    const mentions = input.mentionSkills?.map((name) => `$${name} `).join('') ?? '';
    return this.inTurnSpan(input.sessionId, turnId, (span) => {
      // Skill selection needs only the message: it runs while the session's lease is taken.
      const selection = this.selectSkills(mentions + input.message, input.signal, input.skillParameters);
      return this.exclusive(input.sessionId, turnId, input.leased, (lease) => {
        const state = this.startState(input, turnId, lease);
        return this.driveInSpan(span, state, false, async () => {
          // History and message are written while the selection finishes (the system prompt is slot 0).
          await Promise.all([
            (async () => {
              const message: LlmMessage = { role: 'user', content: input.message };
              const { sessions } = this.deps;
              if (sessions.openTurn) {
                const opened = await sessions.openTurn(input.sessionId, turnId, message, state.scope.fence);
                for (const stored of opened.history) state.messages.push(stored.message);
                state.messages.push(message);
                return;
              }
              const log = await sessions.load(input.sessionId);
              for (const stored of log) state.messages.push(stored.message);
              await this.append(state, message);
            })(),
            this.prepare(state, selection),
          ]);
        });
      });
    });
  }

  /** Whether a turn of the session is running in this runner. */
  isBusy(sessionId: string): boolean {
    return this.busy.has(sessionId);
  }

  /**
   * Finishes the session's interrupted turn after a restart or a takeover: takes the session's lease,
   * reloads the history, and settles the last assistant message's calls that have no result: a call
   * that had started is recorded as interrupted (never re-run); one waiting for a decision waits for
   * the stored decision (or asks afresh); then the loop goes on. `undefined` when the session has no
   * unfinished turn; throws {@link SessionBusyError} while another owner holds the turn.
   */
  async resumeTurn(sessionId: string, input: ResumeInput = {}): Promise<TurnResult | undefined> {
    const before = await this.deps.sessions.load(sessionId);
    const leased = this.deps.leases !== undefined && input.leased !== false;
    const seen = findInterruptedTurn(before);
    // A leased session is taken even without an unfinished turn: that clears a lease left behind.
    if (seen === undefined && !leased) return undefined;
    return this.exclusive(sessionId, seen?.turnId ?? 'none', input.leased, async (lease) => {
      // Read again under the lease: the previous owner may have written more before it stopped.
      const log = lease ? await this.deps.sessions.load(sessionId) : before;
      const interrupted = findInterruptedTurn(log);
      if (interrupted === undefined) return undefined;
      const state = this.startState({ ...input, sessionId }, interrupted.turnId, lease);
      state.iterations = interrupted.iterations;
      return this.drive(state, true, async () => {
        for (const stored of log) state.messages.push(stored.message);
        await this.prepare(state, this.selectSkills(interrupted.userMessage, state.scope.signal));
        const pending = interrupted.pendingCalls;
        if (pending.length === 0) return;
        state.open = [...pending];
        // After a restart the catalog may still be filling: the ceiling is set from the tools listed.
        await this.deps.tools.whenListed?.(
          pending.map((call) => call.name),
          state.scope.signal,
        );
        const started = this.deps.claims
          ? await this.deps.claims.started(
              sessionId,
              pending.map((call) => call.id),
            )
          : new Set<string>();
        const ceiling = await this.visibleTools(state);
        const scope = { ...state.scope, ceiling: ceiling.ceiling, preApprovals: state.preApprovals };
        for (const call of pending) {
          const outcome = started.has(call.id)
            ? this.executor.interrupted(call, scope)
            : await state.clock.inTools(async () =>
                this.executor.resume(call, await this.deps.approvals.findByCall(sessionId, call.id), scope),
              );
          await this.appendResult(state, outcome);
        }
      });
    });
  }

  /**
   * Runs `work` as the session's only turn: refused while this runner runs one, and (with leases) while
   * another owner holds the session's lease. The lease is released before the caller hears the result,
   * so the session's next message may land on any orchestrator.
   */
  private async exclusive<T>(
    sessionId: string,
    turnId: string,
    leased: boolean | undefined,
    work: (lease?: HeldTurnLease) => Promise<T>,
  ): Promise<T> {
    if (this.busy.has(sessionId)) throw new SessionBusyError(sessionId);
    this.busy.add(sessionId);
    let lease: HeldTurnLease | undefined;
    try {
      if (this.deps.leases !== undefined && leased !== false) {
        lease = await this.deps.leases.hold(sessionId, turnId);
        if (lease === undefined) throw new SessionBusyError(sessionId);
      }
      return await work(lease);
    } finally {
      // A failed release leaves an expired lease behind; the next sweep takes and clears it.
      await lease?.release().catch(() => undefined);
      this.busy.delete(sessionId);
    }
  }

  /**
   * Runs one tool outside a model turn (`/call`), through the same policy and approval path; no
   * ceiling applies and nothing is added to the session's messages.
   */
  async callTool(input: DirectToolCallInput): Promise<ToolCallOutcome> {
    const callId = input.callId ?? `direct_${randomUUID()}`;
    const scope: ToolCallScope = {
      sessionId: input.sessionId,
      turnId: input.turnId ?? callId,
      actor: input.actor ?? 'operator',
      autonomous: input.autonomous ?? false,
      signal: input.signal,
      emit: guardListener(input.onEvent),
    };
    const [outcome] = await this.executor.runBatch(
      [{ id: callId, name: input.tool, arguments: input.params }],
      scope,
    );
    return outcome!;
  }

  private startState(input: Omit<TurnInput, 'message'>, turnId: string, lease?: HeldTurnLease): TurnState {
    const emit = guardListener(input.onEvent);
    const signal =
      lease === undefined
        ? input.signal
        : input.signal === undefined
          ? lease.signal
          : AbortSignal.any([input.signal, lease.signal]);
    const fence: TurnFence | undefined = lease?.fence ?? (this.deps.claims ? this.unleasedFence : undefined);
    return {
      sessionId: input.sessionId,
      turnId,
      ...(input.instructions === undefined ? {} : { instructions: input.instructions }),
      messages: [{ role: 'system', content: '' }],
      scope: {
        sessionId: input.sessionId,
        turnId,
        actor: input.actor ?? 'model',
        autonomous: input.autonomous ?? false,
        signal,
        emit,
        ...(fence === undefined ? {} : { fence }),
      },
      ...(lease === undefined ? {} : { lease }),
      activeSkills: [],
      skillsToAnnounce: false,
      clock: new TurnClock(),
      usage: { inputTokens: 0, outputTokens: 0 },
      iterations: 0,
      maxIterations: input.maxIterations ?? this.maxIterations,
      ...(input.toolAllowlist === undefined ? {} : { allowlist: new Set(input.toolAllowlist) }),
      open: [],
      persist: true,
      preApprovals: NO_PRE_APPROVALS.byTool,
      gatedOut: [],
    };
  }

  /**
   * One turn is one span (`invoke_agent`), from the taking of its lease on; the parent of its skill selection,
   * model calls and tool calls.
   */
  private inTurnSpan(
    sessionId: string,
    turnId: string,
    work: (span: Span) => Promise<TurnResult>,
  ): Promise<TurnResult> {
    return inSpan(
      'invoke_agent talon',
      {
        attributes: {
          [ATTR.genAiOperation]: 'invoke_agent',
          [ATTR.sessionId]: sessionId,
          [ATTR.turnId]: turnId,
        },
      },
      work,
    );
  }

  private drive(state: TurnState, resumed: boolean, setup: () => Promise<void>): Promise<TurnResult> {
    return this.inTurnSpan(state.sessionId, state.turnId, (span) =>
      this.driveInSpan(span, state, resumed, setup),
    );
  }

  private async driveInSpan(
    span: Span,
    state: TurnState,
    resumed: boolean,
    setup: () => Promise<void>,
  ): Promise<TurnResult> {
    const result = await this.driveTurn(state, resumed, async () => {
      await setup();
      if (state.activeSkills.length > 0)
        span.setAttribute(
          ATTR.skillNames,
          state.activeSkills.map((skill) => skill.name),
        );
    });
    span.setAttribute(ATTR.genAiInputTokens, result.usage.inputTokens);
    span.setAttribute(ATTR.genAiOutputTokens, result.usage.outputTokens);
    if (result.error) recordFailure(span, result.error);
    return result;
  }

  private async driveTurn(
    state: TurnState,
    resumed: boolean,
    setup: () => Promise<void>,
  ): Promise<TurnResult> {
    const signal = state.scope.signal;
    const { sessionId, turnId, scope } = state;
    scope.emit({ type: 'turn_started', sessionId, turnId, resumed });
    let reason: TurnFinishReason;
    let content: string | undefined;
    let error: { code: string; message: string } | undefined;
    try {
      signal?.throwIfAborted();
      await setup();
      content = await this.iterate(state);
      reason = content === undefined ? 'iteration_cap' : 'final_answer';
    } catch (thrown) {
      if (state.lease?.lost || isLeaseLost(thrown)) return this.abandon(state, thrown);
      reason = signal?.aborted ? 'aborted' : 'error';
      error =
        reason === 'aborted'
          ? { code: 'ABORTED', message: 'The turn was stopped before it finished.' }
          : TalonError.isInstance(thrown)
            ? { code: thrown.code, message: thrown.message }
            : {
                code: 'INTERNAL',
                message: 'The turn failed with an unexpected error; see the orchestrator log.',
              };
      scope.emit({ type: 'error', sessionId, turnId, ...error, fatal: true });
      // Close the calls left without a result, so the history stays valid for the next turn (after the
      // write in flight, which decides which calls are open).
      await this.settleLog(state).catch(() => undefined);
      await this.closeOpenCalls(state, error).catch(() => undefined);
    }
    // A leased turn's claims go with its lease; an unleased one's are forgotten here (all calls have results).
    if (state.lease === undefined && scope.fence !== undefined)
      await this.deps.claims?.forget(sessionId).catch(() => undefined);
    const usage = { ...state.usage };
    scope.emit({ type: 'usage', sessionId, turnId, scope: 'turn', usage });
    const detail =
      reason === 'iteration_cap'
        ? `Stopped after ${state.maxIterations} model calls without a final answer; send another message to continue.`
        : undefined;
    scope.emit({
      type: 'turn_finished',
      sessionId,
      turnId,
      reason,
      iterations: state.iterations,
      ...(detail ? { detail } : {}),
    });
    return {
      sessionId,
      turnId,
      reason,
      iterations: state.iterations,
      usage,
      timings: state.clock.finish(),
      ...(content === undefined ? {} : { content }),
      ...(error ? { error } : {}),
    };
  }

  /**
   * The turn's lease was lost (this process was too slow and another owner took the turn over): stop
   * without writing anything more, and without `turn_finished`, which the new owner will send.
   */
  private abandon(state: TurnState, thrown: unknown): TurnResult {
    const lost = isLeaseLost(thrown)
      ? (thrown as TalonError)
      : new TurnLeaseLostError(state.sessionId, state.scope.fence?.owner ?? 'this process');
    if (!isLeaseLost(thrown)) this.deps.leases?.markLost(state.sessionId);
    const error = { code: lost.code, message: lost.message };
    state.scope.emit({
      type: 'error',
      sessionId: state.sessionId,
      turnId: state.turnId,
      ...error,
      fatal: false,
    });
    return {
      sessionId: state.sessionId,
      turnId: state.turnId,
      reason: 'error',
      iterations: state.iterations,
      usage: { ...state.usage },
      timings: state.clock.finish(),
      error,
    };
  }

  /**
   * Asks the skill service which skills apply; settles with the selection or the failure, never rejects
   * (a turn refused before it starts leaves nothing unhandled). `undefined` without a skill service.
   */
  private selectSkills(
    userMessage: string,
    signal: AbortSignal | undefined,
    parameters?: Readonly<Record<string, Record<string, unknown>>>,
  ): Promise<SkillSelection> | undefined {
    if (this.deps.skills === undefined) return undefined;
    return this.deps.skills.select(userMessage, { signal, ...(parameters ? { parameters } : {}) }).then(
      (selected) => ({ selected }),
      (error: unknown) => ({ error }),
    );
  }

  /**
   * Takes the skill selection and writes the system prompt (message 0, never persisted). A skill service
   * that fails here degrades the turn to no skills (no skill, so nothing to narrow); a failing attenuation
   * later fails the turn instead, so a ceiling is never silently lost.
   */
  private async prepare(state: TurnState, selection: Promise<SkillSelection> | undefined): Promise<void> {
    let blocks: string[] = [];
    let skillIndex: string | undefined;
    if (selection !== undefined) {
      const outcome = await selection;
      if ('selected' in outcome) {
        const { selected } = outcome;
        state.activeSkills = selected.active;
        state.gatedOut = selected.considered
          .filter((entry) => entry.outcome === 'gated_out')
          .map((entry) => ({ name: entry.name, reasons: entry.reasons }));
        blocks = selected.active.map((skill) => skill.injection);
        skillIndex = selected.index;
      } else {
        if (state.scope.signal?.aborted) throw outcome.error;
        const code = TalonError.isInstance(outcome.error) ? outcome.error.code : 'INTERNAL';
        state.scope.emit({
          type: 'error',
          sessionId: state.sessionId,
          turnId: state.turnId,
          code,
          message: 'Skill selection failed; answering without skills.',
          fatal: false,
        });
      }
      state.skillsToAnnounce = true;
    }
    const workspace = this.options.workspacePrompt;
    state.messages[0] = {
      role: 'system',
      content: buildSystemPrompt({
        workspacePrompt: typeof workspace === 'function' ? workspace() : workspace,
        skillBlocks: blocks,
        ...(skillIndex ? { skillIndex } : {}),
        ...(state.instructions ? { instructions: state.instructions } : {}),
      }),
    };
  }

  /** The loop proper; returns the final text, or `undefined` at the iteration cap. */
  private async iterate(state: TurnState): Promise<string | undefined> {
    const { sessionId, turnId, scope } = state;
    while (state.iterations < state.maxIterations) {
      scope.signal?.throwIfAborted();
      const visible = await this.visibleTools(state);
      state.iterations++;
      const reply = await state.clock.inModel(() =>
        callModel({
          provider: this.deps.provider,
          messages: state.messages,
          tools: visible.tools,
          maxTokens: this.options.maxTokens,
          temperature: this.options.temperature,
          signal: scope.signal,
          onText: (text) => scope.emit({ type: 'text_delta', sessionId, turnId, text }),
        }),
      );
      if (reply.usage !== undefined) {
        state.usage.inputTokens += reply.usage.inputTokens;
        state.usage.outputTokens += reply.usage.outputTokens;
        scope.emit({ type: 'usage', sessionId, turnId, scope: 'call', usage: reply.usage });
      }
      if (
        state.tokenBudget !== undefined &&
        state.usage.inputTokens + state.usage.outputTokens > state.tokenBudget
      )
        throw new SkillTaskLimitError(state.toolLimit?.skill ?? 'skill', `${state.tokenBudget} tokens`);
      await this.settleLog(state);
      const calls = reply.toolCalls.map((entry) => entry.call);
      if (calls.length === 0) {
        await this.appendLast(state, { role: 'assistant', content: reply.text });
        scope.emit({ type: 'message', sessionId, turnId, content: reply.text });
        return reply.text;
      }
      // Written while the batch reads its policy; the batch claims nothing before it is in the log.
      const logged = this.append(state, { role: 'assistant', content: reply.text, toolCalls: calls }).then(
        () => {
          state.open = calls.slice();
        },
      );
      this.inFlight(state, logged);
      const runnable: LlmToolCall[] = [];
      for (const entry of reply.toolCalls) {
        if (entry.malformed === undefined) runnable.push(entry.call);
        else {
          await this.settleLog(state);
          await this.appendResult(state, this.malformedOutcome(state, entry.call, entry.malformed));
        }
      }
      if (runnable.length === 0) {
        await this.settleLog(state);
        continue;
      }
      const batchScope = {
        ...scope,
        ...(visible.ceiling === undefined ? {} : { ceiling: visible.ceiling }),
        preApprovals: state.preApprovals,
        usage: state.usage,
        logged,
      };
      const outcomes = await state.clock.inTools(() => this.executor.runBatch(runnable, batchScope));
      await this.settleLog(state);
      // Written while the model answers the next call; the next write waits for it.
      this.inFlight(state, this.appendResults(state, outcomes));
      this.adoptLoadedSkills(state, runnable, outcomes);
    }
    await this.settleLog(state);
    return undefined;
  }

  /** Keeps a write that runs beside other work; its failure surfaces at {@link settleLog}, never unhandled. */
  private inFlight(state: TurnState, write: Promise<void>): void {
    write.catch(() => undefined);
    state.logging = write;
  }

  /** Waits for the write in flight, if any, and rethrows its failure. */
  private async settleLog(state: TurnState): Promise<void> {
    const pending = state.logging;
    if (pending === undefined) return;
    state.logging = undefined;
    await pending;
  }

  /**
   * Skills the model loaded with `skill_load` join the turn's active skills, so the next model call is
   * attenuated exactly as if the selector had picked them (an Installed skill narrows the tools) and the
   * change is announced with `skills_selected`. A load whose output cannot be read (cut or redacted) counts
   * as an Installed skill: the narrowing fails closed.
   */
  private adoptLoadedSkills(
    state: TurnState,
    calls: readonly LlmToolCall[],
    outcomes: readonly ToolCallOutcome[],
  ): void {
    let changed = false;
    for (const outcome of outcomes) {
      if (outcome.tool !== SKILL_LOAD_TOOL || !outcome.ok) continue;
      const loaded = (outcome.reply?.output as { skill?: ActiveSkill } | undefined)?.skill;
      const requested = calls.find((call) => call.id === outcome.callId)?.arguments['name'];
      const skill: ActiveSkill | undefined =
        loaded && typeof loaded.name === 'string'
          ? loaded
          : typeof requested === 'string'
            ? {
                name: requested,
                version: '0.0.0',
                trust: 'INSTALLED',
                tier: 'mention',
                score: 0,
                costTokens: 0,
                reasons: ['loaded by the model; its output could not be read, so it counts as installed'],
                allowedTools: [],
                injection: '',
              }
            : undefined;
      if (!skill || state.activeSkills.some((active) => active.name === skill.name)) continue;
      state.activeSkills = [...state.activeSkills, skill];
      changed = true;
      // From the next call on the skill's block sits in the system prompt like a selected skill's.
      const system = state.messages[0];
      if (skill.injection && system?.role === 'system')
        state.messages[0] = {
          role: 'system',
          content: `${system.content}\n\nLoaded skill:\n${skill.injection}`,
        };
    }
    if (changed) state.skillsToAnnounce = true;
  }

  /** The catalog as of now, attenuated by the turn's skills; the first call also announces the skills. */
  private async visibleTools(
    state: TurnState,
  ): Promise<{ tools: readonly ToolDefinition[]; ceiling?: TurnCeiling }> {
    const catalog = this.deps.tools.list();
    let visible: {
      tools: readonly ToolDefinition[];
      ceiling?: TurnCeiling;
      removed: readonly { name: string; reason: string }[];
    };
    // With no active skill there is nothing to narrow: skip the round trip to the skill service.
    if (this.deps.skills === undefined || state.activeSkills.length === 0)
      visible = { tools: catalog, removed: [] };
    else {
      const attenuated = await this.deps.skills.attenuate(state.activeSkills, catalog, {
        signal: state.scope.signal,
      });
      visible = {
        tools: attenuated.kept,
        ceiling: ceilingFromAttenuation(attenuated),
        removed: attenuated.removed,
      };
    }
    if (state.toolLimit !== undefined) visible = limitToDeclared(visible, state.toolLimit);
    const preApprovals = skillPreApprovals(state.activeSkills, visible.tools);
    state.preApprovals = preApprovals.byTool;
    if (state.allowlist !== undefined) visible = restrictToAllowlist(visible, state.allowlist);
    if (state.skillsToAnnounce) {
      state.skillsToAnnounce = false;
      state.scope.emit({
        type: 'skills_selected',
        sessionId: state.sessionId,
        turnId: state.turnId,
        skills: state.activeSkills.map((skill) => ({
          name: skill.name,
          trust: skill.trust,
          score: skill.score,
          reasons: skill.reasons,
        })),
        removedTools: visible.removed,
        ...(state.gatedOut.length > 0 ? { gatedOut: state.gatedOut } : {}),
      });
      if (preApprovals.decisions.length > 0)
        state.scope.emit({
          type: 'skill_pre_approvals',
          sessionId: state.sessionId,
          turnId: state.turnId,
          decisions: preApprovals.decisions,
        });
    }
    return visible;
  }

  /**
   * `execute_skill`: runs one skill as a nested turn of the calling one. The skill is activated by name with
   * the given parameters (rendered body, trust, declared tools resolved); the nested turn sees only the
   * skill's declared tools that the caller could see too, is attenuated by the skill's trust, keeps its own
   * limits (model calls, time, tokens), streams its events on the session's stream marked with `subtask`, and
   * persists nothing; its final answer is the call's result. A skill already running in the chain, or a
   * chain deeper than `maxDepth`, is refused with SKILL_RECURSION_LIMIT.
   */
  async runSkillTask(call: LlmToolCall, scope: ToolCallScope): Promise<ToolCallOutcome> {
    const fail = (code: string, message: string): ToolCallOutcome => ({
      callId: call.id,
      tool: call.name,
      ok: false,
      code,
      content: errorContent(code, message),
    });
    const request = readSkillTaskCall(call, scope, this.skillTasks.maxDepth);
    if ('problem' in request) return fail(request.code, request.problem);
    const { skill } = request;
    if (this.deps.skills?.activate === undefined)
      return fail(ERROR_CODES.UNAVAILABLE, 'No skill service is configured, so no skill can be executed.');
    let active: ActiveSkill;
    try {
      active = await this.deps.skills.activate(skill, request.parameters, { signal: scope.signal });
    } catch (error) {
      if (scope.signal?.aborted) throw error;
      return TalonError.isInstance(error)
        ? fail(error.code, error.message)
        : fail(ERROR_CODES.INTERNAL, 'The skill could not be activated; see the orchestrator log.');
    }
    const timeout = AbortSignal.timeout(this.skillTasks.timeoutMs);
    const workspace = this.options.workspacePrompt;
    const state = skillTaskState({
      call,
      scope,
      request,
      active,
      limits: this.skillTasks,
      signal: scope.signal ? AbortSignal.any([scope.signal, timeout]) : timeout,
      workspacePrompt: typeof workspace === 'function' ? workspace() : workspace,
      callerTools: scope.ceiling?.visible ?? new Set(this.deps.tools.list().map((tool) => tool.name)),
    });
    const { turnId } = state;
    const emit = state.scope.emit;
    emit({ type: 'turn_started', sessionId: scope.sessionId, turnId, resumed: false });
    let outcome: ToolCallOutcome;
    let reason: TurnFinishReason = 'final_answer';
    try {
      const content = await this.iterate(state);
      if (content === undefined) {
        reason = 'iteration_cap';
        outcome = fail(
          ERROR_CODES.SKILL_TASK_LIMIT,
          `The skill "${skill}" did not finish within ${state.maxIterations} model calls.`,
        );
      } else outcome = { callId: call.id, tool: call.name, ok: true, content };
    } catch (thrown) {
      if (scope.signal?.aborted) throw thrown;
      reason = 'error';
      outcome = timeout.aborted
        ? fail(
            ERROR_CODES.SKILL_TASK_LIMIT,
            `The skill "${skill}" did not finish within ${this.skillTasks.timeoutMs} ms.`,
          )
        : TalonError.isInstance(thrown)
          ? fail(thrown.code, thrown.message)
          : fail(ERROR_CODES.INTERNAL, `The skill "${skill}" failed with an unexpected error.`);
    }
    emit({ type: 'usage', sessionId: scope.sessionId, turnId, scope: 'turn', usage: { ...state.usage } });
    if (scope.usage) {
      scope.usage.inputTokens += state.usage.inputTokens;
      scope.usage.outputTokens += state.usage.outputTokens;
    }
    emit({ type: 'turn_finished', sessionId: scope.sessionId, turnId, reason, iterations: state.iterations });
    return outcome;
  }

  private malformedOutcome(state: TurnState, call: LlmToolCall, problem: string): ToolCallOutcome {
    const message = `The arguments of "${call.name}" were not a JSON object: ${problem}. Call it again with valid JSON arguments.`;
    state.scope.emit({
      type: 'tool_call_finished',
      sessionId: state.sessionId,
      turnId: state.turnId,
      callId: call.id,
      tool: call.name,
      ok: false,
      code: 'SCHEMA_VIOLATION',
      message,
      durationMs: 0,
    });
    return {
      callId: call.id,
      tool: call.name,
      ok: false,
      code: 'SCHEMA_VIOLATION',
      content: errorContent('SCHEMA_VIOLATION', message),
    };
  }

  private async closeOpenCalls(state: TurnState, error: { code: string; message: string }): Promise<void> {
    for (const call of state.open.slice()) {
      await this.appendResult(state, {
        callId: call.id,
        tool: call.name,
        ok: false,
        code: error.code,
        content: errorContent(error.code, `not run: ${error.message}`),
      });
    }
  }

  private async appendResult(state: TurnState, outcome: ToolCallOutcome): Promise<void> {
    await this.append(state, {
      role: 'tool',
      toolCallId: outcome.callId,
      toolName: outcome.tool,
      content: outcome.content,
      ...(replyImages(outcome.reply) ? { images: replyImages(outcome.reply)! } : {}),
      ...(outcome.ok ? {} : { isError: true }),
    });
    const index = state.open.findIndex((call) => call.id === outcome.callId);
    if (index >= 0) state.open.splice(index, 1);
  }

  /**
   * A batch's results. They join the turn's messages at once (the next model call sees them) and are then
   * written, in one statement when the store supports it; a call stays open until its result is written.
   */
  private async appendResults(state: TurnState, outcomes: readonly ToolCallOutcome[]): Promise<void> {
    const messages: LlmMessage[] = outcomes.map((outcome) => ({
      role: 'tool',
      toolCallId: outcome.callId,
      toolName: outcome.tool,
      content: outcome.content,
      ...(replyImages(outcome.reply) ? { images: replyImages(outcome.reply)! } : {}),
      ...(outcome.ok ? {} : { isError: true }),
    }));
    state.messages.push(...messages);
    const { sessions } = this.deps;
    if (state.persist && sessions.appendMany && messages.length > 1)
      await sessions.appendMany(state.sessionId, state.turnId, messages, state.scope.fence);
    else if (state.persist)
      for (const message of messages)
        await sessions.append(state.sessionId, state.turnId, message, state.scope.fence);
    const done = new Set(outcomes.map((outcome) => outcome.callId));
    state.open = state.open.filter((call) => !done.has(call.id));
  }

  /**
   * The turn's final answer: with a lease and a store that can, written together with the lease's end
   * (one statement instead of two at the end of every turn); otherwise appended, and the lease ends later.
   */
  private async appendLast(state: TurnState, message: LlmMessage): Promise<void> {
    const { sessions } = this.deps;
    const lease = state.lease;
    if (!state.persist || lease === undefined || sessions.closeTurn === undefined)
      return this.append(state, message);
    await lease.closeWith((fence) => sessions.closeTurn!(state.sessionId, state.turnId, message, fence));
    state.messages.push(message);
  }

  private async append(state: TurnState, message: LlmMessage): Promise<void> {
    if (state.persist)
      await this.deps.sessions.append(state.sessionId, state.turnId, message, state.scope.fence);
    state.messages.push(message);
  }
}

/** Narrows what a turn sees to a job's allowlist; the ceiling enforces it again at dispatch. */
function restrictToAllowlist(
  visible: {
    tools: readonly ToolDefinition[];
    ceiling?: TurnCeiling;
    removed: readonly { name: string; reason: string }[];
  },
  allowlist: ReadonlySet<string>,
): {
  tools: readonly ToolDefinition[];
  ceiling: TurnCeiling;
  removed: readonly { name: string; reason: string }[];
} {
  const tools = visible.tools.filter((tool) => allowlist.has(tool.name));
  const removed = new Map(visible.ceiling?.removed ?? []);
  for (const tool of visible.tools)
    if (!allowlist.has(tool.name)) removed.set(tool.name, "not among the tools this job's policy allows");
  return {
    tools,
    ceiling: { visible: new Set(tools.map((tool) => tool.name)), removed },
    removed: visible.removed,
  };
}

function guardListener(listener: AgentEventListener | undefined): AgentEventListener {
  if (listener === undefined) return () => undefined;
  return (event: AgentEvent) => {
    try {
      listener(event);
    } catch {
      // A failing listener (a closed SSE stream) must not break the turn.
    }
  };
}

function isLeaseLost(error: unknown): boolean {
  return TalonError.isInstance(error) && error.code === ERROR_CODES.TURN_LEASE_LOST;
}
