import { rename, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { ToolAlreadyInstalledError } from './errors/tool-already-installed-error.js';
import { InstalledToolsStore, type InstalledToolsState } from './installed-tools-store.js';

/** The file a runner without shared state kept its installed tools in (see {@link InstalledToolsStore}). */
const FOLDER_STATE_FILE = 'installed-tools.json';

/**
 * Moves the tools a runner installed before it shared its state (`<installedDir>/installed-tools.json` and
 * its artifacts) into the shared state, once: a tool another runner already shares wins, and the file is
 * renamed `.imported` so a tool removed later does not come back on the next start.
 */
export async function importFolderState(
  installedDir: string,
  shared: InstalledToolsState,
): Promise<{ imported: string[]; skipped: { name: string; reason: string }[] }> {
  const file = join(installedDir, FOLDER_STATE_FILE);
  const result = { imported: [] as string[], skipped: [] as { name: string; reason: string }[] };
  if (!(await stat(file).catch(() => undefined))) return result;
  const folder = await InstalledToolsStore.open(installedDir);
  for (const record of folder.list()) {
    if (shared.get(record.name)) {
      result.skipped.push({ name: record.name, reason: 'already shared' });
      continue;
    }
    try {
      await shared.put(record, await folder.readArtifact(record), { ifAbsent: true });
      result.imported.push(record.name);
    } catch (error) {
      if (error instanceof ToolAlreadyInstalledError) {
        result.skipped.push({ name: record.name, reason: 'already shared' });
        continue;
      }
      result.skipped.push({
        name: record.name,
        reason: error instanceof Error ? error.message : String(error),
      });
    }
  }
  await rename(file, `${file}.imported`);
  return result;
}
