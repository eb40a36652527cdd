import type { FileHandle } from 'node:fs/promises';
import { createInterface } from 'node:readline';
import type { Tool, ToolContext } from '@talon/tool-runtime';
import { BINARY_SAMPLE_BYTES, looksBinary } from './binary-content-detector.js';
import { InvalidToolParamsError } from './invalid-tool-params-error.js';
import { ToolParamReader } from './tool-param-reader.js';
import { WorkspaceEntryNotFoundError } from './workspace-entry-not-found-error.js';
import { openRegularFile } from './workspace-file-opener.js';
import { parseWorkspaceOptions, type WorkspaceOptions } from './workspace-options.js';
import { WorkspaceRoot } from './workspace-root.js';

/** Params of `read_file`. Lines are 1-based and inclusive. */
export interface ReadFileParams {
  path: string;
  startLine?: number;
  endLine?: number;
  maxBytes?: number;
}

/** Result of `read_file`. `content` is empty for a binary file. */
export interface ReadFileOutput {
  path: string;
  content: string;
  totalBytes: number;
  binary: boolean;
  /** The content stopped at `maxBytes` before the requested end. */
  truncated: boolean;
  /** First and last line returned, when a line range was asked for. */
  startLine?: number;
  endLine?: number;
}

/** `read_file`: reads a text file of the workspace, whole or by line range, up to a byte cap. */
export function createReadFileTool(options: WorkspaceOptions): Tool<ReadFileParams, ReadFileOutput> {
  const { root, caps } = parseWorkspaceOptions(options);
  const workspace = new WorkspaceRoot(root);
  return {
    definition: {
      name: 'read_file',
      description: `Read a text file of the workspace, optionally lines startLine..endLine (1-based, inclusive). At most ${caps.maxReadBytes} bytes are returned; "truncated" says when more exists. Binary files are reported, not returned.`,
      parameters: {
        type: 'object',
        properties: {
          path: {
            type: 'string',
            minLength: 1,
            maxLength: 4096,
            description: 'Path relative to the workspace root.',
          },
          startLine: { type: 'integer', minimum: 1 },
          endLine: { type: 'integer', minimum: 1 },
          maxBytes: { type: 'integer', minimum: 1, maximum: caps.maxReadBytes },
        },
        required: ['path'],
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
    async execute(params: ReadFileParams, _context: ToolContext): Promise<ReadFileOutput> {
      const reader = new ToolParamReader('read_file', params);
      const userPath = reader.string('path');
      const startLine = reader.optionalInteger('startLine', 1, Number.MAX_SAFE_INTEGER);
      const endLine = reader.optionalInteger('endLine', 1, Number.MAX_SAFE_INTEGER);
      const maxBytes = reader.optionalInteger('maxBytes', 1, caps.maxReadBytes) ?? caps.maxReadBytes;
      if (startLine !== undefined && endLine !== undefined && endLine < startLine) {
        throw new InvalidToolParamsError('read_file', 'endLine', 'must not be before startLine');
      }
      const resolved = await workspace.resolve(userPath);
      if (!resolved.exists) throw new WorkspaceEntryNotFoundError(resolved.relative);
      const { handle, stats } = await openRegularFile(workspace, resolved.absolute, resolved.relative);
      try {
        const sample = Buffer.alloc(Math.min(BINARY_SAMPLE_BYTES, stats.size));
        await handle.read(sample, 0, sample.length, 0);
        const base = { path: resolved.relative, totalBytes: stats.size };
        if (looksBinary(sample)) return { ...base, content: '', binary: true, truncated: false };
        if (startLine === undefined && endLine === undefined) {
          const buffer = Buffer.alloc(Math.min(stats.size, maxBytes));
          const { bytesRead } = await handle.read(buffer, 0, buffer.length, 0);
          const content = new TextDecoder().decode(buffer.subarray(0, bytesRead), { stream: true });
          return { ...base, content, binary: false, truncated: stats.size > maxBytes };
        }
        return {
          ...base,
          binary: false,
          ...(await readLineRange(handle, startLine ?? 1, endLine ?? Number.MAX_SAFE_INTEGER, maxBytes)),
        };
      } finally {
        await handle.close();
      }
    },
  };
}

async function readLineRange(
  handle: FileHandle,
  first: number,
  last: number,
  maxBytes: number,
): Promise<{ content: string; truncated: boolean; startLine: number; endLine: number }> {
  const lines: string[] = [];
  let bytes = 0;
  let lineNumber = 0;
  let truncated = false;
  const stream = handle.createReadStream({ start: 0, autoClose: false, encoding: 'utf8' });
  const input = createInterface({ input: stream, crlfDelay: Infinity });
  try {
    for await (const line of input) {
      lineNumber += 1;
      if (lineNumber < first) continue;
      if (lineNumber > last) break;
      const size = Buffer.byteLength(line) + 1;
      if (bytes + size > maxBytes) {
        truncated = true;
        break;
      }
      bytes += size;
      lines.push(line);
    }
  } finally {
    input.close();
    stream.destroy();
  }
  return { content: lines.join('\n'), truncated, startLine: first, endLine: first + lines.length - 1 };
}
