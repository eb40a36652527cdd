import { applyPatch, parsePatch, type StructuredPatch } from 'diff';
import { BINARY_SAMPLE_BYTES, looksBinary } from './binary-content-detector.js';
import { PATCH_REJECTION_REASONS, PatchRejectedError } from './patch-rejected-error.js';
import { openRegularFile } from './workspace-file-opener.js';
import { WorkspaceLimitExceededError } from './workspace-limit-exceeded-error.js';
import type { WorkspacePath, WorkspaceRoot } from './workspace-root.js';

/** What a patch does to one file. */
export type PatchOperation = 'create' | 'modify' | 'delete' | 'rename';

/** One file's part of a verified patch. */
export interface PatchedFileSummary {
  path: string;
  operation: PatchOperation;
  hunks: number;
}

/** The final state of every file a patch touches, computed in memory; nothing is written yet. */
export interface PatchPlan {
  summaries: PatchedFileSummary[];
  /** Absolute path → new content, or null to delete. Only files that change. */
  changes: Map<string, { path: WorkspacePath; content: string | null }>;
}

const DEV_NULL = '/dev/null';

interface FileState {
  path: WorkspacePath;
  existedBefore: boolean;
  original: string | null;
  content: string | null;
}

/**
 * Verifies every hunk of every file of a unified diff against the current files, in memory, and
 * returns the resulting contents. Any hunk that does not apply exactly rejects the whole patch.
 */
export async function buildPatchPlan(
  workspace: WorkspaceRoot,
  patchText: string,
  maxFileBytes: number,
): Promise<PatchPlan> {
  let indexes: StructuredPatch[];
  try {
    indexes = parsePatch(patchText);
  } catch (error) {
    throw new PatchRejectedError(
      PATCH_REJECTION_REASONS.MALFORMED,
      `the patch cannot be parsed (${(error as Error).message})`,
    );
  }
  indexes = indexes.filter(
    (index) => index.oldFileName !== undefined || index.newFileName !== undefined || index.hunks.length > 0,
  );
  if (indexes.length === 0)
    throw new PatchRejectedError(
      PATCH_REJECTION_REASONS.NO_FILES,
      'the patch names no file (it needs ---/+++ headers)',
    );
  const states = new Map<string, FileState>();
  const load = async (userPath: string): Promise<FileState> => {
    const path = await workspace.resolveForWrite(userPath);
    const known = states.get(path.absolute);
    if (known) return known;
    const original = path.exists ? await readText(workspace, path, maxFileBytes) : null;
    const state = { path, existedBefore: path.exists, original, content: original };
    states.set(path.absolute, state);
    return state;
  };
  const summaries: PatchedFileSummary[] = [];
  for (const index of indexes) {
    const [oldName, newName] = namesOf(index);
    if (oldName === undefined || newName === undefined) {
      throw new PatchRejectedError(
        PATCH_REJECTION_REASONS.MALFORMED,
        'a file section lacks its --- or +++ header',
      );
    }
    const shownName = newName === DEV_NULL ? oldName : newName;
    if (index.isBinary)
      throw new PatchRejectedError(
        PATCH_REJECTION_REASONS.NOT_A_TEXT_FILE,
        'binary patches are not supported',
        { file: shownName },
      );
    if (index.isCopy)
      throw new PatchRejectedError(
        PATCH_REJECTION_REASONS.MALFORMED,
        'copies are not supported; send the new file as a creation',
        { file: shownName },
      );
    const creates = oldName === DEV_NULL || index.isCreate === true;
    const deletes = newName === DEV_NULL || index.isDelete === true;
    if (creates && deletes)
      throw new PatchRejectedError(
        PATCH_REJECTION_REASONS.MALFORMED,
        'a file section both creates and deletes',
      );
    let operation: PatchOperation;
    let source: FileState | undefined;
    let target: FileState | undefined;
    if (creates) {
      operation = 'create';
      target = await load(newName);
    } else if (deletes) {
      operation = 'delete';
      source = await load(oldName);
    } else if (oldName === newName || !index.isGit) {
      // A plain diff between two names (`diff -u a.orig a`) patches the file that exists, as patch(1) does.
      operation = 'modify';
      const preferred = await load(newName);
      source = target = preferred.content === null && oldName !== newName ? await load(oldName) : preferred;
    } else {
      operation = 'rename';
      source = await load(oldName);
      target = await load(newName);
    }
    const display = (target ?? source)!.path.relative;
    if (operation === 'create' && target!.content !== null) {
      throw new PatchRejectedError(
        PATCH_REJECTION_REASONS.FILE_EXISTS,
        'the patch creates a file that already exists',
        { file: display },
      );
    }
    if (source && source.content === null) {
      throw new PatchRejectedError(
        PATCH_REJECTION_REASONS.FILE_MISSING,
        'the patch changes a file that does not exist',
        { file: source.path.relative },
      );
    }
    if (operation === 'rename' && target!.content !== null && target !== source) {
      throw new PatchRejectedError(
        PATCH_REJECTION_REASONS.FILE_EXISTS,
        'the patch renames onto a file that already exists',
        { file: display },
      );
    }
    const result = applyAllHunks(source?.content ?? '', index, display);
    if (operation === 'delete' && result !== '') {
      throw new PatchRejectedError(
        PATCH_REJECTION_REASONS.HUNK_MISMATCH,
        'a deletion must remove every line of the file',
        { file: display },
      );
    }
    if (source && source !== target) source.content = null;
    if (target) target.content = result;
    summaries.push({ path: display, operation, hunks: index.hunks.length });
  }
  const changes: PatchPlan['changes'] = new Map();
  for (const [absolute, state] of states) {
    if (state.content === state.original && (state.content !== null || !state.existedBefore)) continue;
    if (state.content === null && !state.existedBefore) continue;
    changes.set(absolute, { path: state.path, content: state.content });
  }
  return { summaries, changes };
}

/** Applies all hunks or names the first that does not apply. */
function applyAllHunks(source: string, index: StructuredPatch, file: string): string {
  const result = applyPatch(source, index);
  if (result !== false) return result;
  for (let count = 1; count <= index.hunks.length; count += 1) {
    if (applyPatch(source, { ...index, hunks: index.hunks.slice(0, count) }) === false) {
      const hunk = index.hunks[count - 1]!;
      throw new PatchRejectedError(
        PATCH_REJECTION_REASONS.HUNK_MISMATCH,
        'its context or removed lines do not match the file',
        {
          file,
          hunk: count,
          header: `@@ -${hunk.oldStart},${hunk.oldLines} +${hunk.newStart},${hunk.newLines} @@`,
        },
      );
    }
  }
  throw new PatchRejectedError(PATCH_REJECTION_REASONS.HUNK_MISMATCH, 'the hunks do not apply together', {
    file,
  });
}

/** Old and new names with git's `a/` and `b/` prefixes removed. */
function namesOf(index: StructuredPatch): [string | undefined, string | undefined] {
  let oldName = index.oldFileName?.trim();
  let newName = index.newFileName?.trim();
  const gitStyle =
    (oldName === DEV_NULL || oldName?.startsWith('a/')) &&
    (newName === DEV_NULL || newName?.startsWith('b/'));
  if (gitStyle) {
    if (oldName !== DEV_NULL) oldName = oldName!.slice(2);
    if (newName !== DEV_NULL) newName = newName!.slice(2);
  }
  return [oldName, newName];
}

async function readText(
  workspace: WorkspaceRoot,
  path: WorkspacePath,
  maxFileBytes: number,
): Promise<string> {
  const { handle, stats } = await openRegularFile(workspace, path.absolute, path.relative);
  try {
    if (stats.size > maxFileBytes)
      throw new WorkspaceLimitExceededError(`size in bytes of ${path.relative}`, maxFileBytes, stats.size);
    const bytes = await handle.readFile();
    if (looksBinary(bytes.subarray(0, BINARY_SAMPLE_BYTES))) {
      throw new PatchRejectedError(PATCH_REJECTION_REASONS.NOT_A_TEXT_FILE, 'the file is binary', {
        file: path.relative,
      });
    }
    return bytes.toString('utf8');
  } finally {
    await handle.close();
  }
}
