import type { GrantStore, SessionGrants } from '@talon/agent';
import { EpochReadCache, type ReadEpoch } from '@talon/persistence';

/** The table grants are read from. */
const GRANT_TABLES = ['session_grant'];

/**
 * A session's grants shared while the change epoch of their table stands still (see
 * `Database.changeEpoch`): every gated call reads them, the read was about half of the orchestrator's CPU
 * per call at concurrency 64 on PGlite (measured), and the audit append of every call does not move that
 * epoch. (A call's approval is not kept: a caller who approved a call and calls again must find it
 * approved at once, before the change's notice reaches this orchestrator.)
 */
export class CachedSessionGrants implements Pick<GrantStore, 'get'> {
  private readonly cache: EpochReadCache;

  constructor(
    private readonly store: Pick<GrantStore, 'get'>,
    epoch: ReadEpoch,
  ) {
    this.cache = new EpochReadCache(epoch, GRANT_TABLES);
  }

  get(sessionId: string): Promise<SessionGrants> {
    return this.cache.read(sessionId, () => this.store.get(sessionId));
  }
}
