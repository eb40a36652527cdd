import type { AttenuateResult } from '@talon/contracts';

/**
 * The tools a turn may call, as the last attenuation left them. Enforced again at dispatch, so a
 * model that calls a removed tool anyway is refused.
 */
export interface TurnCeiling {
  /** LLM-facing names of the tools offered to the model. */
  readonly visible: ReadonlySet<string>;
  /** Why each removed tool was removed, by name. */
  readonly removed: ReadonlyMap<string, string>;
}

/** The ceiling an attenuation result sets. */
export function ceilingFromAttenuation(result: AttenuateResult): TurnCeiling {
  return {
    visible: new Set(result.kept.map((tool) => tool.name)),
    removed: new Map(result.removed.map((entry) => [entry.name, entry.reason])),
  };
}
