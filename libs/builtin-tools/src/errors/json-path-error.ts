import { ToolFailedError } from '@talon/tool-runtime';

/** The `json` tool could not evaluate a JSONPath expression. */
export class JsonPathError extends ToolFailedError {
  constructor(path: string, problem: string) {
    super(
      `The JSONPath "${path.slice(0, 120)}" cannot be evaluated: ${problem}. Use forms such as "$.items[*].name" or "$..book[?(@.price < 10)]".`,
      { details: { reason: 'invalid_json_path', path } },
    );
  }
}
