import type { CatalogWarmUp } from './catalog-warm-up.js';
import type { ToolCatalog } from './tool-catalog.js';
import { untilChanged } from './until-changed.js';

/** The longest a caller waits for missing tools while the catalog warms up. */
export const WARM_TOOL_WAIT_MS = 1_500;

/**
 * While the catalog warms up, waits until every named tool is in it: at most `maxWaitMs`, never past the
 * window. Resolves at once when they all are, or when the catalog is warm. Whether they arrived is for
 * the caller to check: a tool still missing then fails as the caller's own error says.
 */
export async function awaitWarmTools(
  catalog: ToolCatalog,
  warmUp: CatalogWarmUp,
  names: readonly string[],
  signal?: AbortSignal,
  maxWaitMs = WARM_TOOL_WAIT_MS,
): Promise<void> {
  const known = () => names.every((name) => catalog.get(name) !== undefined);
  const now = Date.now();
  if (known() || !warmUp.isWarming(now)) return;
  await untilChanged(
    (listener) => catalog.onChange(listener),
    known,
    Math.min(warmUp.endsAt - now, maxWaitMs),
    signal,
  );
}
