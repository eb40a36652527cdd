import { unlink } from 'node:fs/promises';
import { dirname } from 'node:path';
import type { Tool, ToolContext } from '@talon/tool-runtime';
import {
  commitStagedFile,
  createDirectoriesInside,
  discardStagedFile,
  stageFile,
  type StagedFile,
} from './atomic-file-writer.js';
import { buildPatchPlan, type PatchedFileSummary } from './patch-plan-builder.js';
import { ToolParamReader } from './tool-param-reader.js';
import { WorkspaceLimitExceededError } from './workspace-limit-exceeded-error.js';
import { parseWorkspaceOptions, type WorkspaceOptions } from './workspace-options.js';
import { WorkspaceRoot } from './workspace-root.js';

/** Params of `apply_patch`. */
export interface ApplyPatchParams {
  patch: string;
}

/** Result of `apply_patch`. */
export interface ApplyPatchOutput {
  files: PatchedFileSummary[];
}

/**
 * `apply_patch`: applies a unified diff that may touch several files, create them (`--- /dev/null`)
 * or delete them (`+++ /dev/null`). Every hunk is verified in memory first; if one does not apply,
 * nothing is written. Then every new content is staged next to its file and renamed into place.
 */
export function createApplyPatchTool(options: WorkspaceOptions): Tool<ApplyPatchParams, ApplyPatchOutput> {
  const { root, caps } = parseWorkspaceOptions(options);
  const workspace = new WorkspaceRoot(root);
  return {
    definition: {
      name: 'apply_patch',
      description:
        'Apply a unified diff (as produced by `diff -u` or `git diff`) to workspace files; it may touch several files, create (--- /dev/null) or delete (+++ /dev/null) them. ' +
        'All hunks must apply exactly, otherwise nothing is changed and the failing file and hunk are reported.',
      parameters: {
        type: 'object',
        properties: {
          patch: {
            type: 'string',
            minLength: 1,
            description: `Unified diff, at most ${caps.maxPatchBytes} bytes.`,
          },
        },
        required: ['patch'],
        additionalProperties: false,
      },
      effects: ['read_filesystem', 'write_filesystem', 'delete_filesystem'],
      approval: 'unless_auto_approved',
      timeoutMs: 60_000,
      domain: 'container',
      source: 'builtin',
      sensitiveParams: [],
      idempotent: false,
    },
    async execute(params: ApplyPatchParams, _context: ToolContext): Promise<ApplyPatchOutput> {
      const patch = new ToolParamReader('apply_patch', params).string('patch');
      const patchBytes = Buffer.byteLength(patch);
      if (patchBytes > caps.maxPatchBytes)
        throw new WorkspaceLimitExceededError('patch size in bytes', caps.maxPatchBytes, patchBytes);
      const plan = await buildPatchPlan(workspace, patch, caps.maxWriteBytes);
      const writes = [...plan.changes.values()].filter((change) => change.content !== null);
      const deletions = [...plan.changes.values()].filter((change) => change.content === null);
      const staged: StagedFile[] = [];
      try {
        for (const change of writes) {
          await createDirectoriesInside(workspace, dirname(change.path.absolute));
          staged.push(await stageFile(workspace, change.path.absolute, change.content!));
        }
      } catch (error) {
        await Promise.all(staged.map(discardStagedFile));
        throw error;
      }
      // Everything is staged and flushed: the renames below are the commit.
      for (const [position, file] of staged.entries()) {
        try {
          await commitStagedFile(workspace, file);
        } catch (error) {
          await Promise.all(staged.slice(position).map(discardStagedFile));
          throw error;
        }
      }
      for (const change of deletions) await unlink(change.path.absolute);
      return { files: plan.summaries };
    },
  };
}
