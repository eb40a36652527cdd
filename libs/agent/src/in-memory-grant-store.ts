import type { ToolEffect } from '@talon/contracts';
import type { GrantStore } from './grant-store.js';
import { NO_GRANTS, type PolicyAction, type SessionGrants } from './session-grants.js';

interface MutableGrants {
  byEffect: Partial<Record<ToolEffect, PolicyAction>>;
  byTool: Record<string, PolicyAction>;
}

/** A {@link GrantStore} in process memory, for tests and single-process demos. */
export class InMemoryGrantStore implements GrantStore {
  private readonly sessions = new Map<string, MutableGrants>();

  async get(sessionId: string): Promise<SessionGrants> {
    return this.sessions.get(sessionId) ?? NO_GRANTS;
  }

  async setToolGrant(sessionId: string, tool: string, action: PolicyAction): Promise<void> {
    this.grantsOf(sessionId).byTool[tool] = action;
  }

  async setEffectGrant(sessionId: string, effect: ToolEffect, action: PolicyAction): Promise<void> {
    this.grantsOf(sessionId).byEffect[effect] = action;
  }

  private grantsOf(sessionId: string): MutableGrants {
    let grants = this.sessions.get(sessionId);
    if (grants === undefined) {
      grants = { byEffect: {}, byTool: {} };
      this.sessions.set(sessionId, grants);
    }
    return grants;
  }
}
