import { ToolFailedError } from '@talon/tool-runtime';

/** Where malformed JSON text broke: character offset, and 1-based line and column. */
export interface JsonErrorPosition {
  position: number;
  line: number;
  column: number;
}

/** The `json` tool was given text that is not valid JSON. */
export class JsonParseError extends ToolFailedError {
  declare readonly details: { reason: 'malformed_json'; parameter: string } & JsonErrorPosition;

  constructor(parameter: string, problem: string, where: JsonErrorPosition) {
    super(
      `The JSON in ${parameter} is malformed at line ${where.line}, column ${where.column} (position ${where.position}): ${problem}. Fix the text and try again.`,
      { details: { reason: 'malformed_json', parameter, ...where } },
    );
  }
}
