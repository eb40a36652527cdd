import { JsonParseError, type JsonErrorPosition } from './errors/json-parse-error.js';
import { locateJsonError } from './json-error-locator.js';

function positionOf(text: string, offset: number): JsonErrorPosition {
  const position = Math.max(0, Math.min(offset, text.length));
  let line = 1;
  let lineStart = 0;
  for (let index = 0; index < position; index += 1) {
    if (text.charCodeAt(index) === 10) {
      line += 1;
      lineStart = index + 1;
    }
  }
  return { position, line, column: position - lineStart + 1 };
}

/**
 * Parses JSON text; on malformed text throws {@link JsonParseError} with the offset, line and column
 * (found by a second scan, because the engine does not always say where).
 */
export function parseJsonText(text: string, parameter: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    const offset = locateJsonError(text);
    // Keep the engine's wording but drop its echo of the input, which may be long.
    const problem =
      message.replace(/,\s*".*" is not valid JSON$/s, '').replace(/\s*in JSON at position \d+.*$/, '') ||
      'invalid JSON';
    throw new JsonParseError(parameter, problem, positionOf(text, offset));
  }
}
