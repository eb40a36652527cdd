import { ERROR_CODES, type ActiveSkill, type ToolDefinition } from '@talon/contracts';
import type { LlmToolCall } from '@talon/llm';
import type { AgentEvent } from './agent-events.js';
import { NO_PRE_APPROVALS } from './skill-pre-approvals.js';
import { buildSystemPrompt } from './system-prompt-builder.js';
import type { ToolCallScope } from './tool-call-executor.js';
import type { TurnCeiling } from './turn-ceiling.js';
import { TurnClock } from './turn-clock.js';
import type { SkillTaskOptions } from './turn-options.js';
import type { TurnState } from './turn-state.js';

/** An `execute_skill` call, checked: which skill, with what, how deep, below which skills. */
export interface SkillTaskRequest {
  readonly skill: string;
  readonly parameters: Readonly<Record<string, unknown>>;
  readonly task: string;
  readonly depth: number;
  readonly chain: readonly string[];
}

/**
 * Reads an `execute_skill` call. The call skips the dispatcher (and its schema check), so its arguments are
 * checked here (SCHEMA_VIOLATION), then the chain: a skill already running in it (itself or a cycle), or a
 * depth past `maxDepth`, is SKILL_RECURSION_LIMIT.
 */
export function readSkillTaskCall(
  call: LlmToolCall,
  scope: ToolCallScope,
  maxDepth: number,
): SkillTaskRequest | { code: string; problem: string } {
  const args = call.arguments as Record<string, unknown>;
  const problem = argumentsProblem(args);
  if (problem !== undefined)
    return {
      code: ERROR_CODES.SCHEMA_VIOLATION,
      problem: `execute_skill ${problem}; call it again with valid arguments.`,
    };
  const skill = args['skill'] as string;
  const chain = scope.task?.chain ?? [];
  const depth = (scope.task?.depth ?? 0) + 1;
  if (chain.includes(skill))
    return {
      code: ERROR_CODES.SKILL_RECURSION_LIMIT,
      problem: `The skill "${skill}" is already running in this chain (${[...chain, skill].join(' → ')}); a skill cannot execute itself, directly or through others. Finish with what you have.`,
    };
  if (depth > maxDepth)
    return {
      code: ERROR_CODES.SKILL_RECURSION_LIMIT,
      problem: `execute_skill would nest ${depth} sub-tasks deep; the limit is ${maxDepth}. Finish with what you have.`,
    };
  return {
    skill,
    parameters: (args['parameters'] as Record<string, unknown> | undefined) ?? {},
    task:
      typeof args['task'] === 'string' && args['task'].trim() !== ''
        ? args['task']
        : `Run the skill "${skill}" and answer with its result.`,
    depth,
    chain,
  };
}

/** What a sub-task's state is made of. */
export interface SkillTaskStateInput {
  call: LlmToolCall;
  scope: ToolCallScope;
  request: SkillTaskRequest;
  active: ActiveSkill;
  limits: Required<SkillTaskOptions>;
  signal: AbortSignal;
  workspacePrompt?: string;
  /** The tools the calling turn could call: the sub-task never sees more. */
  callerTools: ReadonlySet<string>;
}

/**
 * The state of a sub-task: its own turn id (`<parent>/<call>`), the skill's rendered block as instructions
 * and the task as the user message, events marked with `subtask` on the caller's stream, nothing persisted,
 * the skill's declared tools only, and its own limits.
 */
export function skillTaskState(input: SkillTaskStateInput): TurnState {
  const { call, scope, request, active } = input;
  const { skill, depth } = request;
  const origin = { parentTurnId: scope.turnId, callId: call.id, skill, depth };
  const turnId = `${scope.turnId}/${call.id}`;
  const emit = (event: AgentEvent) => scope.emit({ ...event, subtask: origin });
  return {
    sessionId: scope.sessionId,
    turnId,
    messages: [
      {
        role: 'system',
        content: buildSystemPrompt({
          workspacePrompt: [
            input.workspacePrompt,
            `You are running the skill "${skill}" as a sub-task of another conversation. Follow the skill's instructions for the task you are given, use only the tools offered, and end with the result as your final answer.`,
          ]
            .filter(Boolean)
            .join('\n\n'),
          skillBlocks: [active.injection],
        }),
      },
      { role: 'user', content: request.task },
    ],
    scope: {
      sessionId: scope.sessionId,
      turnId,
      actor: scope.actor,
      autonomous: scope.autonomous,
      signal: input.signal,
      emit,
      task: { depth, chain: [...request.chain, skill], origin },
    },
    activeSkills: [active],
    skillsToAnnounce: true,
    clock: new TurnClock(),
    usage: { inputTokens: 0, outputTokens: 0 },
    iterations: 0,
    open: [],
    maxIterations: input.limits.maxIterations,
    persist: false,
    preApprovals: NO_PRE_APPROVALS.byTool,
    gatedOut: [],
    toolLimit: {
      skill,
      declared: new Set((active.tools ?? []).map((tool) => tool.name)),
      caller: input.callerTools,
    },
    tokenBudget: input.limits.maxTokens,
  };
}

/** A sub-task's view: only the skill's declared tools, and only those its caller could see. */
export function limitToDeclared(
  visible: {
    tools: readonly ToolDefinition[];
    ceiling?: TurnCeiling;
    removed: readonly { name: string; reason: string }[];
  },
  limit: NonNullable<TurnState['toolLimit']>,
): {
  tools: readonly ToolDefinition[];
  ceiling: TurnCeiling;
  removed: readonly { name: string; reason: string }[];
} {
  const kept: ToolDefinition[] = [];
  const removed = [...visible.removed];
  for (const tool of visible.tools) {
    if (!limit.declared.has(tool.name))
      removed.push({
        name: tool.name,
        reason: `not declared by the skill "${limit.skill}", which execute_skill runs with its declared tools only`,
      });
    else if (!limit.caller.has(tool.name))
      removed.push({ name: tool.name, reason: 'not available to the turn that called execute_skill' });
    else kept.push(tool);
  }
  return {
    tools: kept,
    ceiling: {
      visible: new Set(kept.map((tool) => tool.name)),
      removed: new Map(removed.map((entry) => [entry.name, entry.reason])),
    },
    removed,
  };
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** What is wrong with `execute_skill` arguments, in words, or undefined. */
function argumentsProblem(args: Record<string, unknown>): string | undefined {
  const allowed = new Set(['skill', 'parameters', 'task']);
  const unknown = Object.keys(args).filter((key) => !allowed.has(key));
  if (unknown.length > 0) return `takes skill, parameters and task only (got ${unknown.join(', ')})`;
  if (typeof args['skill'] !== 'string' || !/^[a-z0-9][a-z0-9-]{0,63}$/.test(args['skill']))
    return 'needs "skill": a skill name';
  if (args['parameters'] !== undefined && !isRecord(args['parameters']))
    return 'needs "parameters" to be an object';
  if (args['task'] !== undefined && (typeof args['task'] !== 'string' || args['task'].length > 8000))
    return 'needs "task" to be a string of at most 8000 characters';
  return undefined;
}
