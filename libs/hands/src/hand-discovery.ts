import { readdir } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import type { HandRejection, HandSummary } from '@talon/contracts';
import { BinaryLookup, type GatingOptions } from '@talon/skills';
import { evaluateHandGating } from './hand-gating.js';
import { HAND_FILE_SUFFIX } from './hand-id-rules.js';
import { readHandFile } from './hand-parser.js';
import { SYSTEM_HANDS } from './system-hands.js';

/** Options of {@link discoverHands}. */
export interface HandDiscoveryOptions extends GatingOptions {
  /** The hands folder; a missing folder yields the system hands only. */
  dir?: string;
  /** Tool names that exist; hands naming others are refused. Default: not checked. */
  knownTools?: readonly string[];
}

/** What one discovery run found: system hands first, then file hands by id, and the refused files. */
export interface HandSnapshot {
  dir?: string;
  hands: HandSummary[];
  rejected: HandRejection[];
}

const MAX_HAND_FILES = 500;

/**
 * Reads every `<id>.HAND.toml` in the folder. A broken file is listed with its reason and never stops the
 * others. Ids are unique because each must equal its file name, and `_` ids are refused in files.
 */
export async function discoverHands(options: HandDiscoveryOptions = {}): Promise<HandSnapshot> {
  const lookup = new BinaryLookup(options.env ?? process.env, options.platform ?? process.platform);
  const hands: HandSummary[] = SYSTEM_HANDS.map((hand) => ({
    ...hand,
    gating: { eligible: true, reasons: [] },
  }));
  const rejected: HandRejection[] = [];
  if (!options.dir) return { hands, rejected };
  const dir = resolve(options.dir);
  let files: string[];
  try {
    files = (await readdir(dir))
      .filter((file) => file.endsWith(HAND_FILE_SUFFIX) && !file.startsWith('.'))
      .sort();
  } catch {
    return { dir, hands, rejected };
  }
  for (const file of files.slice(MAX_HAND_FILES)) {
    rejected.push({
      reason: 'too_large',
      message: `more than ${MAX_HAND_FILES} hand files; this one was not read`,
      path: join(dir, file),
    });
  }
  for (const file of files.slice(0, MAX_HAND_FILES)) {
    const result = await readHandFile(
      join(dir, file),
      options.knownTools ? { knownTools: options.knownTools } : {},
    );
    if (!result.ok) {
      rejected.push(result.rejection);
      continue;
    }
    const { hand } = result;
    hands.push({ ...hand, gating: evaluateHandGating(hand, options, lookup) });
  }
  return { dir, hands, rejected };
}
