/**
 * Small real implementations of the agent loop's interfaces for tests: a catalog that can change, a
 * tool caller that runs echo-like tools in process and records what ran, a skill advisor with fixed
 * answers, and a helper that builds a TurnRunner over in-memory stores.
 */
import type {
  ActiveSkill,
  AttenuateResult,
  SelectResult,
  ToolDefinition,
  ToolEffect,
  ToolsCallReply,
  ApprovalRequirement,
} from '@talon/contracts';
import { ERROR_CODES } from '@talon/contracts';
import { TalonError } from '@talon/errors';
import type { LlmProvider } from '@talon/llm';
import {
  ApprovalQueue,
  InMemoryApprovalStore,
  InMemoryGrantStore,
  InMemorySessionStore,
  TurnRunner,
  type AgentEvent,
  type AgentToolCall,
  type ApprovalQueueOptions,
  type SkillAdvisor,
  type ToolCaller,
  type ToolCallClaimStore,
  type ToolSource,
  type TurnLeaseKeeper,
  type TurnRunnerOptions,
} from '../../src/index.js';

/** A tool definition with test defaults. */
export function toolDef(
  name: string,
  effects: ToolEffect[] = [],
  approval: ApprovalRequirement = 'never',
): ToolDefinition {
  return {
    name,
    description: `${name} tool`,
    parameters: { type: 'object', properties: { text: { type: 'string' } } },
    effects,
    approval,
    timeoutMs: 5000,
    domain: 'orchestrator',
    source: 'builtin',
    sensitiveParams: [],
    idempotent: true,
  };
}

/** A catalog whose tool list tests change while a turn runs. */
export class MutableToolSource implements ToolSource {
  listCalls = 0;
  constructor(public tools: ToolDefinition[]) {}
  list(): readonly ToolDefinition[] {
    this.listCalls++;
    return this.tools;
  }
  add(tool: ToolDefinition): void {
    this.tools = [...this.tools, tool];
  }
}

/** One recorded call with its wall-clock interval. */
export interface RecordedCall {
  call: AgentToolCall;
  startedAt: number;
  endedAt: number;
}

/**
 * Runs tools in process: every tool echoes its params as `<tool_output>`; `fail` throws TOOL_FAILED;
 * `hooks[name]` runs first (to change the catalog mid-turn, say). `delayMs` makes calls overlap visibly.
 */
export class RecordingToolCaller implements ToolCaller {
  readonly calls: RecordedCall[] = [];
  hooks: Record<string, () => void> = {};
  constructor(private readonly delayMs = 0) {}

  async call(call: AgentToolCall): Promise<ToolsCallReply> {
    const startedAt = performance.now();
    this.hooks[call.tool]?.();
    if (this.delayMs > 0) await new Promise((resolve) => setTimeout(resolve, this.delayMs));
    call.signal?.throwIfAborted();
    const endedAt = performance.now();
    this.calls.push({ call, startedAt, endedAt });
    if (call.tool === 'fail') throw new TalonError(ERROR_CODES.TOOL_FAILED, 'the tool broke on purpose');
    const text = JSON.stringify(call.params);
    return {
      callId: call.callId,
      tool: call.tool,
      output: call.params,
      text: `<tool_output tool="${call.tool}">${call.tool}:${text}</tool_output>`,
      truncated: false,
      redactions: [],
      durationMs: endedAt - startedAt,
      attempts: 1,
    };
  }
}

/** Skills with fixed answers: `active` are selected; attenuation keeps only `keep` when set. */
export class FixedSkillAdvisor implements SkillAdvisor {
  selectCalls = 0;
  attenuateCalls = 0;
  readonly selectedFor: string[] = [];
  constructor(
    private readonly active: ActiveSkill[],
    private readonly keep?: ReadonlySet<string>,
  ) {}

  async select(message: string): Promise<SelectResult> {
    this.selectCalls++;
    this.selectedFor.push(message);
    return {
      active: this.active,
      considered: [],
      consideredTotal: this.active.length,
      tokensUsed: 0,
      injection: this.active.map((skill) => skill.injection).join('\n'),
      durationMs: 0,
    };
  }

  async attenuate(
    _skills: readonly ActiveSkill[],
    tools: readonly ToolDefinition[],
  ): Promise<AttenuateResult> {
    this.attenuateCalls++;
    if (this.keep === undefined)
      return {
        kept: [...tools],
        removed: [],
        explanation: 'all kept',
        ceiling: { mode: 'all', allowed: tools.map((tool) => tool.name), causedBy: [] },
      };
    const kept = tools.filter((tool) => this.keep!.has(tool.name));
    const removed = tools
      .filter((tool) => !this.keep!.has(tool.name))
      .map((tool) => ({
        name: tool.name,
        reason: `installed skill "${this.active[0]?.name}" allows read-only tools only`,
      }));
    return {
      kept,
      removed,
      explanation: 'narrowed',
      ceiling: {
        mode: 'read_only',
        allowed: kept.map((tool) => tool.name),
        causedBy: [this.active[0]?.name ?? ''],
      },
    };
  }
}

/** An active skill as the skill service would return it. */
export function activeSkill(name: string, trust: 'TRUSTED' | 'INSTALLED' = 'TRUSTED'): ActiveSkill {
  return {
    name,
    version: '1.0.0',
    trust,
    tier: 'keyword',
    score: 1,
    costTokens: 10,
    reasons: ['keyword'],
    allowedTools: [],
    injection: `<skill name="${name}">Use ${name} wisely.</skill>`,
  };
}

/** A TurnRunner over in-memory stores, with everything a test needs to poke at. */
export function buildRunner(options: {
  provider: LlmProvider;
  tools?: MutableToolSource;
  caller?: RecordingToolCaller;
  skills?: SkillAdvisor;
  runner?: TurnRunnerOptions;
  queue?: ApprovalQueueOptions;
  sessions?: InMemorySessionStore;
  approvalStore?: InMemoryApprovalStore;
  grants?: InMemoryGrantStore;
  leases?: TurnLeaseKeeper;
  claims?: ToolCallClaimStore;
}) {
  const tools = options.tools ?? new MutableToolSource([toolDef('echo')]);
  const caller = options.caller ?? new RecordingToolCaller();
  const sessions = options.sessions ?? new InMemorySessionStore();
  const approvalStore = options.approvalStore ?? new InMemoryApprovalStore();
  const grants = options.grants ?? new InMemoryGrantStore();
  const approvals = new ApprovalQueue(approvalStore, grants, { pollIntervalMs: 0, ...options.queue });
  const runner = new TurnRunner(
    {
      provider: options.provider,
      tools,
      caller,
      sessions,
      approvals,
      grants,
      skills: options.skills,
      ...(options.leases ? { leases: options.leases } : {}),
      ...(options.claims ? { claims: options.claims } : {}),
    },
    options.runner,
  );
  const events: AgentEvent[] = [];
  return {
    runner,
    tools,
    caller,
    sessions,
    approvals,
    approvalStore,
    grants,
    events,
    onEvent: (event: AgentEvent) => events.push(event),
  };
}

/** The event types in order, for compact assertions. */
export function typesOf(events: readonly AgentEvent[]): string[] {
  return events.map((event) => event.type);
}
