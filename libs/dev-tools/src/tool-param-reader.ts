import { InvalidToolParamsError } from './invalid-tool-params-error.js';

/**
 * Reads one tool's params defensively. The orchestrator validates params against the JSON Schema
 * before a call; these checks repeat the essentials for callers that use a tool directly.
 */
export class ToolParamReader {
  constructor(
    private readonly tool: string,
    private readonly params: unknown,
  ) {
    if (typeof params !== 'object' || params === null || Array.isArray(params)) {
      throw new InvalidToolParamsError(tool, '(params)', 'must be an object');
    }
  }

  private value(name: string): unknown {
    return (this.params as Record<string, unknown>)[name];
  }

  string(name: string, maxLength = Number.MAX_SAFE_INTEGER): string {
    const value = this.value(name);
    if (typeof value !== 'string')
      throw new InvalidToolParamsError(this.tool, name, 'is required and must be a string');
    if (value.length > maxLength)
      throw new InvalidToolParamsError(this.tool, name, `must be at most ${maxLength} characters`);
    return value;
  }

  optionalString(name: string, fallback: string, maxLength = Number.MAX_SAFE_INTEGER): string {
    return this.value(name) === undefined ? fallback : this.string(name, maxLength);
  }

  optionalInteger(name: string, minimum: number, maximum: number): number | undefined {
    const value = this.value(name);
    if (value === undefined) return undefined;
    if (typeof value !== 'number' || !Number.isInteger(value) || value < minimum || value > maximum) {
      throw new InvalidToolParamsError(this.tool, name, `must be an integer from ${minimum} to ${maximum}`);
    }
    return value;
  }

  optionalBoolean(name: string, fallback: boolean): boolean {
    const value = this.value(name);
    if (value === undefined) return fallback;
    if (typeof value !== 'boolean') throw new InvalidToolParamsError(this.tool, name, 'must be a boolean');
    return value;
  }

  optionalStringList(name: string, maxItems: number, maxLength = 253): string[] | undefined {
    const value = this.value(name);
    if (value === undefined) return undefined;
    if (
      !Array.isArray(value) ||
      value.length > maxItems ||
      value.some((item) => typeof item !== 'string' || item.length === 0 || item.length > maxLength)
    ) {
      throw new InvalidToolParamsError(
        this.tool,
        name,
        `must be a list of at most ${maxItems} non-empty strings of at most ${maxLength} characters`,
      );
    }
    return value as string[];
  }
}
