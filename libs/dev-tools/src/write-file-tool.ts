import { lstat } from 'node:fs/promises';
import { dirname } from 'node:path';
import type { Tool, ToolContext } from '@talon/tool-runtime';
import { createDirectoriesInside, writeFileAtomically } from './atomic-file-writer.js';
import { ToolParamReader } from './tool-param-reader.js';
import { WorkspaceEntryNotFoundError } from './workspace-entry-not-found-error.js';
import { WorkspaceEntryTypeError } from './workspace-entry-type-error.js';
import { WorkspaceLimitExceededError } from './workspace-limit-exceeded-error.js';
import { parseWorkspaceOptions, type WorkspaceOptions } from './workspace-options.js';
import { WorkspaceRoot } from './workspace-root.js';

/** Params of `write_file`. */
export interface WriteFileParams {
  path: string;
  content: string;
  /** Create missing parent directories (inside the root). Default true. */
  createDirectories?: boolean;
}

/** Result of `write_file`. */
export interface WriteFileOutput {
  path: string;
  bytesWritten: number;
  created: boolean;
}

/**
 * `write_file`: replaces a file's content atomically (temporary file in the same directory, fsync,
 * rename), so a reader sees the old or the new content, never a mix. Never writes through a symlink.
 */
export function createWriteFileTool(options: WorkspaceOptions): Tool<WriteFileParams, WriteFileOutput> {
  const { root, caps } = parseWorkspaceOptions(options);
  const workspace = new WorkspaceRoot(root);
  return {
    definition: {
      name: 'write_file',
      description:
        'Create or replace a text file in the workspace with the given content (atomic: the old content stays if anything fails). Missing parent directories are created.',
      parameters: {
        type: 'object',
        properties: {
          path: {
            type: 'string',
            minLength: 1,
            maxLength: 4096,
            description: 'Path relative to the workspace root.',
          },
          content: {
            type: 'string',
            description: `The full new content (at most ${caps.maxWriteBytes} bytes).`,
          },
          createDirectories: { type: 'boolean', default: true },
        },
        required: ['path', 'content'],
        additionalProperties: false,
      },
      effects: ['write_filesystem'],
      approval: 'unless_auto_approved',
      timeoutMs: 30_000,
      domain: 'container',
      source: 'builtin',
      sensitiveParams: [],
      idempotent: true,
    },
    async execute(params: WriteFileParams, _context: ToolContext): Promise<WriteFileOutput> {
      const reader = new ToolParamReader('write_file', params);
      const userPath = reader.string('path');
      const content = reader.string('content');
      const createDirectories = reader.optionalBoolean('createDirectories', true);
      const bytes = Buffer.from(content, 'utf8');
      if (bytes.length > caps.maxWriteBytes)
        throw new WorkspaceLimitExceededError(
          'write_file content in bytes',
          caps.maxWriteBytes,
          bytes.length,
        );
      const target = await workspace.resolveForWrite(userPath);
      if (target.exists && (await lstat(target.absolute)).isDirectory())
        throw new WorkspaceEntryTypeError(target.relative, 'file', 'directory');
      const parent = dirname(target.absolute);
      const parentStats = await lstat(parent).catch(() => undefined);
      if (!parentStats) {
        if (!createDirectories) throw new WorkspaceEntryNotFoundError(workspace.relativeOf(parent));
        await createDirectoriesInside(workspace, parent);
      } else if (!parentStats.isDirectory()) {
        throw new WorkspaceEntryTypeError(workspace.relativeOf(parent), 'directory', 'file');
      }
      await writeFileAtomically(workspace, target.absolute, bytes);
      return { path: target.relative, bytesWritten: bytes.length, created: !target.exists };
    },
  };
}
