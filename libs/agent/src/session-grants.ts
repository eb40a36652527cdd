import type { ToolEffect } from '@talon/contracts';

/** What the policy does with a call: run it, ask a person first, or refuse it. */
export const POLICY_ACTIONS = { allow: 'allow', ask: 'ask', deny: 'deny' } as const;
/** One of {@link POLICY_ACTIONS}. */
export type PolicyAction = (typeof POLICY_ACTIONS)[keyof typeof POLICY_ACTIONS];

/**
 * Grants that apply to one session (or, in config, to every session): an action per effect and an
 * action per tool (by its LLM-facing name). Absent entries fall through to the next rule.
 */
export interface SessionGrants {
  readonly byEffect?: Readonly<Partial<Record<ToolEffect, PolicyAction>>>;
  readonly byTool?: Readonly<Record<string, PolicyAction>>;
}

/** Grants with nothing in them. */
export const NO_GRANTS: SessionGrants = Object.freeze({});
