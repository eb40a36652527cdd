import { lstat, readlink } from 'node:fs/promises';
import type { Tool, ToolContext } from '@talon/tool-runtime';
import { ToolParamReader } from './tool-param-reader.js';
import { WorkspaceEntryNotFoundError } from './workspace-entry-not-found-error.js';
import { WorkspaceEntryTypeError } from './workspace-entry-type-error.js';
import { parseWorkspaceOptions, type WorkspaceOptions } from './workspace-options.js';
import { WorkspaceRoot } from './workspace-root.js';
import { WorkspaceWalker, type WorkspaceEntryType } from './workspace-walker.js';

/** Params of `list_dir`. */
export interface ListDirParams {
  path?: string;
  /** 1 lists the directory's own entries; more descends. Default 1. */
  depth?: number;
  maxEntries?: number;
}

/** One listed entry. Symlinks are shown with their target and never followed. */
export interface ListedEntry {
  path: string;
  type: WorkspaceEntryType;
  size?: number;
  linkTarget?: string;
}

/** Result of `list_dir`. */
export interface ListDirOutput {
  path: string;
  entries: ListedEntry[];
  truncated: boolean;
}

/** `list_dir`: lists a workspace directory (optionally recursively) with entry types and sizes. */
export function createListDirTool(options: WorkspaceOptions): Tool<ListDirParams, ListDirOutput> {
  const { root, caps } = parseWorkspaceOptions(options);
  const workspace = new WorkspaceRoot(root);
  return {
    definition: {
      name: 'list_dir',
      description:
        'List the entries of a workspace directory with their type and size; depth > 1 descends into subdirectories. Symlinks are shown, not followed.',
      parameters: {
        type: 'object',
        properties: {
          path: {
            type: 'string',
            minLength: 1,
            maxLength: 4096,
            default: '.',
            description: 'Directory relative to the workspace root.',
          },
          depth: { type: 'integer', minimum: 1, maximum: caps.maxListDepth, default: 1 },
          maxEntries: { type: 'integer', minimum: 1, maximum: caps.maxListEntries },
        },
        additionalProperties: false,
      },
      effects: ['read_filesystem'],
      approval: 'never',
      timeoutMs: 30_000,
      domain: 'container',
      source: 'builtin',
      sensitiveParams: [],
      idempotent: true,
    },
    async execute(params: ListDirParams, _context: ToolContext): Promise<ListDirOutput> {
      const reader = new ToolParamReader('list_dir', params);
      const userPath = reader.optionalString('path', '.');
      const depth = reader.optionalInteger('depth', 1, caps.maxListDepth) ?? 1;
      const maxEntries = reader.optionalInteger('maxEntries', 1, caps.maxListEntries) ?? caps.maxListEntries;
      const directory = await workspace.resolve(userPath);
      if (!directory.exists) throw new WorkspaceEntryNotFoundError(directory.relative);
      const stats = await lstat(directory.absolute);
      if (!stats.isDirectory()) throw new WorkspaceEntryTypeError(directory.relative, 'directory', 'file');
      const walker = new WorkspaceWalker(workspace, { maxDepth: depth, maxEntries });
      const entries: ListedEntry[] = [];
      for await (const entry of walker.walk(directory.absolute)) {
        const listed: ListedEntry = { path: entry.relative, type: entry.type };
        if (entry.type === 'file')
          listed.size = (await lstat(entry.absolute).catch(() => undefined))?.size ?? 0;
        if (entry.type === 'symlink') listed.linkTarget = await readlink(entry.absolute).catch(() => '');
        entries.push(listed);
      }
      return { path: directory.relative, entries, truncated: walker.stoppedEarly };
    },
  };
}
