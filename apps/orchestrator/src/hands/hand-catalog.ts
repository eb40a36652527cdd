import type { HandSummary } from '@talon/contracts';
import { discoverHands, type HandSnapshot } from '@talon/hands';
import { HandNotFoundError } from './hand-not-found-error.js';
import type { ToolCatalog } from '@talon/tool-runtime';

/** How old a snapshot may be when only the hand ids are needed (the schedule parser's hand targets). */
const IDS_MAX_AGE_MS = 5000;

/**
 * The hands of this orchestrator: the system hands and `<handsDir>/<id>.HAND.toml`, read on each listing (a
 * few small files) and checked against the live tool catalog, so a hand naming a tool no worker offers right
 * now is listed as refused with that tool's name.
 */
export class HandCatalog {
  private last?: { at: number; snapshot: HandSnapshot };

  constructor(
    private readonly handsDir: string,
    private readonly tools: ToolCatalog,
  ) {}

  async snapshot(): Promise<HandSnapshot> {
    const knownTools = this.tools.list().map((entry) => entry.definition.name);
    const snapshot = await discoverHands({ dir: this.handsDir, knownTools });
    this.last = { at: Date.now(), snapshot };
    return snapshot;
  }

  /** Ids of the hands that loaded, from a snapshot at most a few seconds old. */
  async ids(): Promise<string[]> {
    const recent =
      this.last && Date.now() - this.last.at < IDS_MAX_AGE_MS ? this.last.snapshot : await this.snapshot();
    return recent.hands.map((hand) => hand.id);
  }

  /** One hand, read afresh; NOT_FOUND (with the refusal of its file, if any) otherwise. */
  async require(id: string): Promise<HandSummary> {
    const { hands, rejected } = await this.snapshot();
    const hand = hands.find((candidate) => candidate.id === id);
    if (hand) return hand;
    throw new HandNotFoundError(
      id,
      rejected.find((rejection) => rejection.id === id),
    );
  }
}
