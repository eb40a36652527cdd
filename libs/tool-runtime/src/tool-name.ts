import { createHash } from 'node:crypto';
import { InvalidToolNameError } from './errors/invalid-tool-name-error.js';

/** What OpenAI and Anthropic both accept as a tool name. */
export const TOOL_NAME_PATTERN = /^[a-zA-Z0-9_-]{1,64}$/;
/** Longest LLM-facing tool name. */
export const MAX_TOOL_NAME_LENGTH = 64;

const HASH_LENGTH = 8;

/** Whether `name` can be sent to an LLM provider as a tool name. */
export function isValidToolName(name: string): boolean {
  return TOOL_NAME_PATTERN.test(name);
}

/** Throws {@link InvalidToolNameError} unless `name` is a valid LLM-facing tool name. */
export function assertValidToolName(name: string): void {
  if (!isValidToolName(name)) throw new InvalidToolNameError(name);
}

/** The name people read for a tool of an MCP server: `server.tool`. */
export function displayName(server: string, tool: string): string {
  return `${server}.${tool}`;
}

function sanitizePart(part: string): string {
  return part.replace(/[^a-zA-Z0-9_-]/g, '_');
}

function shortHash(text: string): string {
  return createHash('sha256').update(text).digest('hex').slice(0, HASH_LENGTH);
}

function withSuffix(base: string, suffix: string): string {
  return `${base.slice(0, MAX_TOOL_NAME_LENGTH - suffix.length - 1)}_${suffix}`;
}

/**
 * The LLM-facing name of tool `tool` on MCP server `server`: `server_tool` with every character outside
 * `[a-zA-Z0-9_-]` replaced by `_`. When that name is too long or already in `taken`, the name is cut and
 * gets `_` plus a short sha256 of the (server, tool) pair, so the same pair always maps to the same name.
 * `taken` is read, not modified: add the returned name yourself.
 */
export function toLlmToolName(server: string, tool: string, taken: ReadonlySet<string>): string {
  const plain = `${sanitizePart(server)}_${sanitizePart(tool)}`;
  if (plain.length <= MAX_TOOL_NAME_LENGTH && !taken.has(plain)) return plain;
  // Not `server.tool`: "a"+"b.c" and "a.b"+"c" must hash differently.
  const identity = JSON.stringify([server, tool]);
  let candidate = withSuffix(plain, shortHash(identity));
  // A second collision (two names cut to the same prefix with equal hashes) is astronomically rare,
  // but stay deterministic and never return a taken name.
  for (let attempt = 1; taken.has(candidate); attempt += 1) {
    candidate = withSuffix(plain, shortHash(`${identity}#${attempt}`));
  }
  return candidate;
}
