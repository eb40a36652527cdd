import { discoverHands, type HandSnapshot } from '@talon/hands';
import type { ToolCatalog } from '@talon/tool-runtime';

/**
 * The hands of this orchestrator: the system hands and `<handsDir>/<id>.HAND.toml`, read on each call (a
 * few small files) and checked against the live tool catalog, so a hand naming a tool no worker offers right
 * now is listed as refused with that tool's name.
 */
export class HandCatalog {
  constructor(
    private readonly handsDir: string,
    private readonly tools: ToolCatalog,
  ) {}

  snapshot(): Promise<HandSnapshot> {
    const knownTools = this.tools.list().map((entry) => entry.definition.name);
    return discoverHands({ dir: this.handsDir, knownTools });
  }

  /** Ids of the hands that loaded, for the schedule parser's "run digest every day" target. */
  async ids(): Promise<string[]> {
    return (await this.snapshot()).hands.map((hand) => hand.id);
  }
}
