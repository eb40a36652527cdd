import { lstat } from 'node:fs/promises';
import picomatch from 'picomatch';
import type { Tool, ToolContext } from '@talon/tool-runtime';
import { BINARY_SAMPLE_BYTES, looksBinary } from './binary-content-detector.js';
import { assertConfinedPattern, skippedDirectoriesFor } from './glob-tool.js';
import { regexOf } from './grep-pattern-compiler.js';
import { IsolatedLineMatcher } from './isolated-line-matcher.js';
import { ToolParamReader } from './tool-param-reader.js';
import { WorkspaceEntryNotFoundError } from './workspace-entry-not-found-error.js';
import { openRegularFile } from './workspace-file-opener.js';
import { parseWorkspaceOptions, type WorkspaceCaps, type WorkspaceOptions } from './workspace-options.js';
import { WorkspaceRoot } from './workspace-root.js';
import { WorkspaceWalker } from './workspace-walker.js';

/** Params of `grep`. */
export interface GrepParams {
  pattern: string;
  /** File or directory to search. Default the root. */
  path?: string;
  fixedString?: boolean;
  ignoreCase?: boolean;
  /** Glob on paths relative to `path`, e.g. `**\/*.ts`. */
  include?: string;
  maxMatches?: number;
}

/** One matching line. */
export interface GrepMatch {
  path: string;
  line: number;
  text: string;
}

/** A file grep did not search, and why. */
export interface GrepSkippedFile {
  path: string;
  reason: 'binary' | 'too_large' | 'time_limit' | 'unreadable';
}

/** Result of `grep`. */
export interface GrepOutput {
  matches: GrepMatch[];
  /** Stopped at maxMatches, at the total time limit or at the walk limit. */
  truncated: boolean;
  filesSearched: number;
  skipped: GrepSkippedFile[];
}

/** Characters of a line that are tested (bounds regex work) and returned. */
export const GREP_MAX_LINE_CHARS = 10_000;
const GREP_RETURNED_LINE_CHARS = 500;
const MAX_SKIPPED_REPORTED = 100;

/**
 * `grep`: searches workspace files for a regular expression or a fixed string. Patterns that can
 * backtrack exponentially are refused up front; matching runs in a worker thread that is
 * terminated when a file exceeds its time cap, so a slow pattern costs at most that cap per file
 * and the total cap per call. Symlinks are not followed.
 */
export function createGrepTool(options: WorkspaceOptions): Tool<GrepParams, GrepOutput> {
  const { root, caps } = parseWorkspaceOptions(options);
  const workspace = new WorkspaceRoot(root);
  return {
    definition: {
      name: 'grep',
      description:
        'Search workspace files for a regular expression (JavaScript syntax) or, with fixedString, a literal string. Returns matching lines with line numbers. "include" filters files by glob.',
      parameters: {
        type: 'object',
        properties: {
          pattern: { type: 'string', minLength: 1, maxLength: caps.maxGrepPatternLength },
          path: { type: 'string', minLength: 1, maxLength: 4096, default: '.' },
          fixedString: { type: 'boolean', default: false },
          ignoreCase: { type: 'boolean', default: false },
          include: { type: 'string', minLength: 1, maxLength: 1000 },
          maxMatches: { type: 'integer', minimum: 1, maximum: caps.maxGrepMatches },
        },
        required: ['pattern'],
        additionalProperties: false,
      },
      effects: ['read_filesystem'],
      approval: 'never',
      timeoutMs: Math.min(600_000, caps.grepTotalTimeMs + 5000),
      domain: 'container',
      source: 'builtin',
      sensitiveParams: [],
      idempotent: true,
    },
    async execute(params: GrepParams, context: ToolContext): Promise<GrepOutput> {
      const reader = new ToolParamReader('grep', params);
      const pattern = reader.string('pattern');
      const userPath = reader.optionalString('path', '.');
      const include = reader.optionalString('include', '**', 1000);
      const maxMatches = reader.optionalInteger('maxMatches', 1, caps.maxGrepMatches) ?? caps.maxGrepMatches;
      const regex = regexOf(
        pattern,
        reader.optionalBoolean('fixedString', false),
        reader.optionalBoolean('ignoreCase', false),
        caps.maxGrepPatternLength,
      );
      assertConfinedPattern(include);
      const target = await workspace.resolve(userPath);
      if (!target.exists) throw new WorkspaceEntryNotFoundError(target.relative);
      const matcher = new IsolatedLineMatcher(regex, GREP_MAX_LINE_CHARS, GREP_RETURNED_LINE_CHARS);
      const search = new GrepSearch(workspace, caps, matcher, maxMatches, context.signal);
      matcher.warmUp();
      try {
        if ((await lstat(target.absolute)).isFile()) {
          await search.searchFile(target.absolute, target.relative);
          return await search.output(false);
        }
        const isIncluded = picomatch(include, { dot: true });
        const prefix = target.relative === '.' ? '' : `${target.relative}/`;
        const walker = new WorkspaceWalker(workspace, {
          maxDepth: Number.MAX_SAFE_INTEGER,
          maxEntries: caps.maxWalkEntries,
          skipDirectories: skippedDirectoriesFor(include),
        });
        for await (const entry of walker.walk(target.absolute)) {
          if (entry.type !== 'file' || !isIncluded(entry.relative.slice(prefix.length))) continue;
          if (!(await search.searchFile(entry.absolute, entry.relative))) break;
        }
        return await search.output(walker.stoppedEarly);
      } finally {
        await matcher.close();
      }
    },
  };
}

/** Files are sent to the matcher in batches of at most this many files or bytes. */
const GREP_BATCH_FILES = 64;
const GREP_BATCH_BYTES = 1024 * 1024;

/** State of one grep call across files: reads files, batches them to the matcher, gathers results. */
class GrepSearch {
  private readonly matches: GrepMatch[] = [];
  private readonly skipped: GrepSkippedFile[] = [];
  private batch: { relative: string; text: string }[] = [];
  private batchBytes = 0;
  private filesSearched = 0;
  private stopped = false;
  private readonly deadline: number;

  constructor(
    private readonly workspace: WorkspaceRoot,
    private readonly caps: Readonly<WorkspaceCaps>,
    private readonly matcher: IsolatedLineMatcher,
    private readonly maxMatches: number,
    private readonly signal: AbortSignal | undefined,
  ) {
    this.deadline = performance.now() + caps.grepTotalTimeMs;
  }

  /** Queues one file; returns false once the whole search must stop. */
  async searchFile(absolute: string, relative: string): Promise<boolean> {
    if (this.stopped || this.signal?.aborted || performance.now() > this.deadline) {
      this.stopped = true;
      return false;
    }
    let content: Buffer;
    try {
      const { handle, stats } = await openRegularFile(this.workspace, absolute, relative);
      try {
        if (stats.size > this.caps.maxGrepFileBytes) return this.skip(relative, 'too_large');
        content = await handle.readFile();
      } finally {
        await handle.close();
      }
    } catch {
      return this.skip(relative, 'unreadable');
    }
    if (looksBinary(content.subarray(0, BINARY_SAMPLE_BYTES))) return this.skip(relative, 'binary');
    this.batch.push({ relative, text: content.toString('utf8') });
    this.batchBytes += content.length;
    if (this.batch.length >= GREP_BATCH_FILES || this.batchBytes >= GREP_BATCH_BYTES) await this.flush();
    return !this.stopped;
  }

  /** Matches the queued files, then reports. */
  async output(walkStoppedEarly: boolean): Promise<GrepOutput> {
    await this.flush();
    return {
      matches: this.matches,
      truncated: this.stopped || walkStoppedEarly,
      filesSearched: this.filesSearched,
      skipped: this.skipped,
    };
  }

  private async flush(): Promise<void> {
    const batch = this.batch;
    this.batch = [];
    this.batchBytes = 0;
    if (batch.length === 0 || this.stopped) return;
    // One more than the room left tells whether the cap cut the results.
    const room = this.maxMatches - this.matches.length;
    const perFileMs = Math.max(1, Math.min(this.caps.grepFileTimeMs, this.deadline - performance.now()));
    const outcomes = await this.matcher.matchAll(
      batch.map((file) => file.text),
      room + 1,
      perFileMs,
    );
    for (const [position, outcome] of outcomes.entries()) {
      const relative = batch[position]!.relative;
      if (outcome.kind === 'timeout') {
        this.skip(relative, 'time_limit');
        continue;
      }
      this.filesSearched += 1;
      for (const match of outcome.matches) {
        if (this.matches.length >= this.maxMatches) {
          this.stopped = true;
          return;
        }
        this.matches.push({ path: relative, ...match });
      }
    }
  }

  private skip(path: string, reason: GrepSkippedFile['reason']): true {
    if (this.skipped.length < MAX_SKIPPED_REPORTED) this.skipped.push({ path, reason });
    return true;
  }
}
