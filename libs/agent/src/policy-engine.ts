import {
  TOOL_EFFECTS,
  type ApprovalRequirement,
  type ToolDefinition,
  type ToolEffect,
} from '@talon/contracts';
import { AgentConfigError } from './errors/agent-config-error.js';
import { NO_GRANTS, POLICY_ACTIONS, type PolicyAction, type SessionGrants } from './session-grants.js';
import type { TurnCeiling } from './turn-ceiling.js';

/**
 * Default action per effect when no grant names it. Reading and plain network fetches run; anything
 * that writes, deletes, executes, spawns, spends, touches secrets or changes Talon itself asks first.
 */
export const DEFAULT_EFFECT_ACTIONS: Readonly<Record<ToolEffect, PolicyAction>> = Object.freeze({
  read_filesystem: 'allow',
  network: 'allow',
  dispatch_capability: 'allow',
  write_filesystem: 'ask',
  delete_filesystem: 'ask',
  use_secret: 'ask',
  execute_code: 'ask',
  spawn_process: 'ask',
  modify_extension: 'ask',
  modify_approval: 'ask',
  modify_budget: 'ask',
  external_write: 'ask',
  financial: 'ask',
});

/** Options of the {@link PolicyEngine}; every field is optional. */
export interface PolicyConfig {
  /** Overrides of {@link DEFAULT_EFFECT_ACTIONS}, per effect. */
  effectDefaults?: Partial<Record<ToolEffect, PolicyAction>>;
  /** Action for a tool that declares no effect. Default `allow`. */
  noEffectAction?: PolicyAction;
  /** Grants applied to every session, below the session's own grants. */
  grants?: SessionGrants;
}

/** Where a decision came from, for audit records and UIs. */
export const POLICY_SOURCES = {
  ceiling: 'ceiling',
  toolGrant: 'tool_grant',
  effectGrant: 'effect_grant',
  default: 'default',
  requirement: 'requirement',
  callApproval: 'call_approval',
  autonomous: 'autonomous',
  skillPreApproval: 'skill_pre_approval',
} as const;
/** One of {@link POLICY_SOURCES}. */
export type PolicySource = (typeof POLICY_SOURCES)[keyof typeof POLICY_SOURCES];

/** The verdict on one call, with a reason a person (and the model) can read. */
export interface PolicyDecision {
  readonly action: PolicyAction;
  readonly source: PolicySource;
  readonly reason: string;
}

/** What the engine needs to know about one call. */
export interface PolicyInput {
  readonly tool: ToolDefinition;
  /** The tool's requirement for these params (`approvalFor(params)`); default `tool.approval`. */
  readonly requirement?: ApprovalRequirement;
  /** The session's grants. */
  readonly grants?: SessionGrants;
  /** The turn's ceiling; absent means no attenuation (direct calls). */
  readonly ceiling?: TurnCeiling;
  /** A person approved this very call (or it was pre-approved for an autonomous run). */
  readonly callApproved?: boolean;
  /** No person is attached (jobs, routines): what would ask is denied instead. */
  readonly autonomous?: boolean;
  /**
   * The active Trusted skill whose `allowed-tools` pre-approves this tool (see `skillPreApprovals`). It lifts
   * an ask like an allow grant would; it never lifts a deny, the ceiling or an `always` requirement.
   */
  readonly preApprovedBy?: string;
}

const RANK: Readonly<Record<PolicyAction, number>> = { allow: 0, ask: 1, deny: 2 };

/**
 * Decides allow | ask | deny for one tool call. Order, first match wins:
 * 1. outside the turn's ceiling → deny;
 * 2. an explicit deny grant (session or config; on the tool or any of its effects) → deny;
 * 3. the base action: a tool grant, else the strictest effect grant or effect default;
 * 4. the tool's requirement: `always` asks unless this call was approved (an allow grant cannot lift
 *    it); `unless_auto_approved` asks unless an allow grant (tool or effect) covers the tool;
 * 5. a per-call approval turns ask into allow;
 * 6. a Trusted skill's pre-approval (`allowed-tools`) turns an ask that is not an `always` requirement into allow;
 * 7. autonomous runs turn the remaining ask into deny.
 * Pure and synchronous: the loop calls it for every tool call.
 */
export class PolicyEngine {
  private readonly effectDefaults: Readonly<Record<ToolEffect, PolicyAction>>;
  private readonly noEffectAction: PolicyAction;
  private readonly configGrants: SessionGrants;

  constructor(config: PolicyConfig = {}) {
    const defaults = { ...DEFAULT_EFFECT_ACTIONS };
    for (const [effect, action] of Object.entries(config.effectDefaults ?? {})) {
      if (!(TOOL_EFFECTS as readonly string[]).includes(effect))
        throw new AgentConfigError(`effectDefaults names an unknown effect "${effect}"`, { effect });
      defaults[effect as ToolEffect] = checkAction(action, `effectDefaults.${effect}`);
    }
    this.effectDefaults = defaults;
    this.noEffectAction = checkAction(config.noEffectAction ?? POLICY_ACTIONS.allow, 'noEffectAction');
    this.configGrants = config.grants ?? NO_GRANTS;
  }

  decide(input: PolicyInput): PolicyDecision {
    const { tool } = input;
    const name = tool.name;
    if (input.ceiling !== undefined && !input.ceiling.visible.has(name)) {
      const why = input.ceiling.removed.get(name);
      return deny(
        'ceiling',
        why === undefined
          ? `"${name}" is not among the tools offered this turn`
          : `removed by skill attenuation: ${why}`,
      );
    }
    const session = input.grants ?? NO_GRANTS;
    const toolGrant = session.byTool?.[name] ?? this.configGrants.byTool?.[name];
    if (toolGrant === 'deny') return deny('tool_grant', `a grant denies the tool "${name}"`);
    let strictestEffect: { effect: ToolEffect; action: PolicyAction; granted: boolean } | undefined;
    let everyEffectGranted = tool.effects.length > 0;
    for (const effect of tool.effects) {
      const granted = session.byEffect?.[effect] ?? this.configGrants.byEffect?.[effect];
      if (granted === 'deny')
        return deny('effect_grant', `a grant denies the effect "${effect}" of "${name}"`);
      if (granted !== 'allow') everyEffectGranted = false;
      const action = granted ?? this.effectDefaults[effect];
      if (strictestEffect === undefined || RANK[action] > RANK[strictestEffect.action])
        strictestEffect = { effect, action, granted: granted !== undefined };
    }

    let base: PolicyDecision;
    if (toolGrant !== undefined)
      base = { action: toolGrant, source: 'tool_grant', reason: `a grant sets "${name}" to ${toolGrant}` };
    else if (strictestEffect === undefined)
      base = { action: this.noEffectAction, source: 'default', reason: `"${name}" declares no effect` };
    else
      base = {
        action: strictestEffect.action,
        source: strictestEffect.granted ? 'effect_grant' : 'default',
        reason: `effect "${strictestEffect.effect}" is ${strictestEffect.action} by ${strictestEffect.granted ? 'grant' : 'default'}`,
      };

    let decision = base;
    const requirement = input.requirement ?? tool.approval;
    if (requirement === 'always' && decision.action === 'allow') {
      decision = {
        action: 'ask',
        source: 'requirement',
        reason: `"${name}" requires approval for every call`,
      };
    } else if (
      requirement === 'unless_auto_approved' &&
      decision.action === 'allow' &&
      toolGrant !== 'allow' &&
      !everyEffectGranted
    ) {
      decision = {
        action: 'ask',
        source: 'requirement',
        reason: `"${name}" requires approval unless a grant allows it`,
      };
    }
    if (decision.action === 'ask' && input.callApproved === true) {
      return { action: 'allow', source: 'call_approval', reason: `this call of "${name}" was approved` };
    }
    if (decision.action === 'ask' && input.preApprovedBy !== undefined && requirement !== 'always') {
      return {
        action: 'allow',
        source: 'skill_pre_approval',
        reason: `pre-approved by the allowed-tools of the trusted skill "${input.preApprovedBy}"`,
      };
    }
    if (decision.action === 'ask' && input.autonomous === true) {
      return deny(
        'autonomous',
        `${decision.reason}, and no person is attached to approve it (autonomous run); pre-approve it with a grant`,
      );
    }
    return decision;
  }

  /** The action an effect gets when no grant names it. */
  defaultFor(effect: ToolEffect): PolicyAction {
    return this.effectDefaults[effect];
  }
}

function deny(source: PolicySource, reason: string): PolicyDecision {
  return { action: 'deny', source, reason };
}

function checkAction(value: unknown, field: string): PolicyAction {
  if (value === 'allow' || value === 'ask' || value === 'deny') return value;
  throw new AgentConfigError(`${field} must be allow, ask or deny (got ${JSON.stringify(value)})`, { field });
}
