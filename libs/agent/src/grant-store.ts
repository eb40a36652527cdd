import type { ToolEffect } from '@talon/contracts';
import type { PolicyAction, SessionGrants } from './session-grants.js';

/**
 * Where per-session grants live. The integrator backs it with the database so an "always allow for
 * this session" decision survives a restart and is seen by every orchestrator.
 */
export interface GrantStore {
  /** The session's grants (empty grants when it has none). */
  get(sessionId: string): Promise<SessionGrants>;
  setToolGrant(sessionId: string, tool: string, action: PolicyAction): Promise<void>;
  setEffectGrant(sessionId: string, effect: ToolEffect, action: PolicyAction): Promise<void>;
}
