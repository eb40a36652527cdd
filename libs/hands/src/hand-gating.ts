import type { Hand, SkillGating } from '@talon/contracts';
import { type BinaryLookup, evaluateGating, type GatingOptions } from '@talon/skills';

/**
 * Checks a hand's requirements on this host, exactly as skills are gated: every non-optional binary must be
 * on PATH and every non-optional env var or API key set. Optional requirements never gate a hand out.
 */
export function evaluateHandGating(
  hand: Hand,
  options: GatingOptions = {},
  lookup?: BinaryLookup,
): SkillGating {
  const required = hand.requires.filter((requirement) => !requirement.optional);
  return evaluateGating(
    {
      bins: required
        .filter((requirement) => requirement.kind === 'binary')
        .map((requirement) => requirement.name),
      anyBins: [],
      env: required
        .filter((requirement) => requirement.kind !== 'binary')
        .map((requirement) => requirement.name),
      config: [],
      os: [],
      skills: [],
      mcp: [],
    },
    options,
    lookup,
  );
}
