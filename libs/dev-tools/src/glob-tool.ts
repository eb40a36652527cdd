import { lstat, realpath } from 'node:fs/promises';
import picomatch from 'picomatch';
import type { Tool, ToolContext } from '@talon/tool-runtime';
import { PATH_REFUSAL_REASONS, PathOutsideWorkspaceError } from './path-outside-workspace-error.js';
import { ToolParamReader } from './tool-param-reader.js';
import { WorkspaceEntryNotFoundError } from './workspace-entry-not-found-error.js';
import { WorkspaceEntryTypeError } from './workspace-entry-type-error.js';
import { parseWorkspaceOptions, type WorkspaceOptions } from './workspace-options.js';
import { WorkspaceRoot } from './workspace-root.js';
import { WorkspaceWalker } from './workspace-walker.js';

/** Params of `glob`. */
export interface GlobParams {
  pattern: string;
  /** Directory the pattern is relative to. Default the root. */
  path?: string;
  includeDirectories?: boolean;
  /** Let `*` match names starting with a dot. Default false. */
  dot?: boolean;
  maxResults?: number;
}

/** Result of `glob`: paths relative to the workspace root, sorted. */
export interface GlobOutput {
  matches: string[];
  truncated: boolean;
}

/** Directories never descended into by `glob` and `grep`. */
export const WALK_SKIPPED_DIRECTORIES: readonly string[] = ['.git', 'node_modules'];

/** The skipped directories, minus any the pattern names explicitly (`node_modules/x/**`). */
export function skippedDirectoriesFor(pattern: string | undefined): string[] {
  return WALK_SKIPPED_DIRECTORIES.filter((name) => !pattern?.includes(name));
}

/** Refuses a glob pattern that names something outside the base (absolute, `..`, NUL). */
export function assertConfinedPattern(pattern: string): void {
  if (pattern.includes('\0')) throw new PathOutsideWorkspaceError(pattern, PATH_REFUSAL_REASONS.NUL_BYTE);
  if (pattern.startsWith('/'))
    throw new PathOutsideWorkspaceError(pattern, PATH_REFUSAL_REASONS.ABSOLUTE_OUTSIDE);
  if (pattern.startsWith('~'))
    throw new PathOutsideWorkspaceError(pattern, PATH_REFUSAL_REASONS.HOME_EXPANSION);
  if (pattern.includes('\\')) throw new PathOutsideWorkspaceError(pattern, PATH_REFUSAL_REASONS.BACKSLASH);
  if (pattern.split('/').includes('..'))
    throw new PathOutsideWorkspaceError(pattern, PATH_REFUSAL_REASONS.PARENT_TRAVERSAL);
}

/**
 * `glob`: finds workspace paths matching a glob (picomatch syntax). The walk never follows a
 * symlink; a symlink is listed only when it resolves inside the root.
 */
export function createGlobTool(options: WorkspaceOptions): Tool<GlobParams, GlobOutput> {
  const { root, caps } = parseWorkspaceOptions(options);
  const workspace = new WorkspaceRoot(root);
  return {
    definition: {
      name: 'glob',
      description: `Find files in the workspace whose path (relative to "path", default the root) matches a glob such as "src/**/*.ts". Skips ${WALK_SKIPPED_DIRECTORIES.join(', ')} unless the pattern names them. Returns paths relative to the workspace root.`,
      parameters: {
        type: 'object',
        properties: {
          pattern: { type: 'string', minLength: 1, maxLength: 1000 },
          path: { type: 'string', minLength: 1, maxLength: 4096, default: '.' },
          includeDirectories: { type: 'boolean', default: false },
          dot: { type: 'boolean', default: false },
          maxResults: { type: 'integer', minimum: 1, maximum: caps.maxGlobResults },
        },
        required: ['pattern'],
        additionalProperties: false,
      },
      effects: ['read_filesystem'],
      approval: 'never',
      timeoutMs: 60_000,
      domain: 'container',
      source: 'builtin',
      sensitiveParams: [],
      idempotent: true,
    },
    async execute(params: GlobParams, context: ToolContext): Promise<GlobOutput> {
      const reader = new ToolParamReader('glob', params);
      const pattern = reader.string('pattern', 1000);
      const userPath = reader.optionalString('path', '.');
      const includeDirectories = reader.optionalBoolean('includeDirectories', false);
      const dot = reader.optionalBoolean('dot', false);
      const maxResults = reader.optionalInteger('maxResults', 1, caps.maxGlobResults) ?? caps.maxGlobResults;
      assertConfinedPattern(pattern);
      const base = await workspace.resolve(userPath);
      if (!base.exists) throw new WorkspaceEntryNotFoundError(base.relative);
      if (!(await lstat(base.absolute)).isDirectory())
        throw new WorkspaceEntryTypeError(base.relative, 'directory', 'file');
      const isMatch = picomatch(pattern, { dot });
      const prefix = base.relative === '.' ? '' : `${base.relative}/`;
      const walker = new WorkspaceWalker(workspace, {
        maxDepth: Number.MAX_SAFE_INTEGER,
        maxEntries: caps.maxWalkEntries,
        skipDirectories: skippedDirectoriesFor(pattern),
      });
      const matches: string[] = [];
      let truncated = false;
      for await (const entry of walker.walk(base.absolute)) {
        if (context.signal?.aborted) break;
        if (entry.type === 'directory' && !includeDirectories) continue;
        if (!isMatch(entry.relative.slice(prefix.length))) continue;
        if (entry.type === 'symlink') {
          const target = await realpath(entry.absolute).catch(() => undefined);
          if (target === undefined || !workspace.contains(target)) continue;
        }
        if (matches.length >= maxResults) {
          truncated = true;
          break;
        }
        matches.push(entry.relative);
      }
      return { matches, truncated: truncated || walker.stoppedEarly };
    },
  };
}
