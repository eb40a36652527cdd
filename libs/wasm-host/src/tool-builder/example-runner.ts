import type { ToolBuildExample, ToolBuildExampleResult } from '@talon/contracts';
import type { ToolContext, ToolLogger } from '@talon/tool-runtime';
import type { WasmTool } from '../wasm-tool.js';
import { expectationMismatch, expectedError } from './example-expectation.js';
import { paramsValidator } from './parameter-schema-check.js';

/**
 * Runs each example in the sandbox (the tool's own worker pool, with its limits) and checks the result: the params
 * must satisfy the tool's schema, the output must contain `expect` (or the call must fail when `expect` is
 * `{"error": "text"}`). Host calls the sandbox refused are collected as flags.
 */
export async function runExamples(
  tool: WasmTool,
  examples: readonly ToolBuildExample[],
): Promise<ToolBuildExampleResult[]> {
  const validate = paramsValidator(tool.definition.parameters);
  const results: ToolBuildExampleResult[] = [];
  for (const [index, example] of examples.entries()) {
    const flags: string[] = [];
    const log: ToolLogger = (level, message, fields) => {
      if (level === 'warn' && /refused|not granted/.test(message))
        flags.push(`${message}${fields?.reason ? `: ${String(fields.reason)}` : ''}`);
    };
    const context: ToolContext = {
      callId: `build-example-${index + 1}`,
      signal: new AbortController().signal,
      grants: [],
      log,
    };
    const started = performance.now();
    const result: ToolBuildExampleResult = {
      params: example.params,
      expect: example.expect,
      ok: false,
      flags,
      durationMs: 0,
    };
    const wantedError = expectedError(example.expect);
    if (!validate(example.params)) {
      result.error = `the params do not satisfy the tool's schema(): ${(validate.errors ?? []).map((e) => `${e.instancePath || '/'} ${e.message}`).join('; ')}`;
    } else {
      try {
        result.output = await tool.execute(example.params, context);
        const mismatch = wantedError
          ? `expected a failure containing "${wantedError}", got output ${JSON.stringify(result.output)}`
          : expectationMismatch(result.output, example.expect);
        if (mismatch) result.error = `the output does not match: ${mismatch}`;
        else result.ok = true;
      } catch (error) {
        const message = error instanceof Error ? error.message : String(error);
        if (wantedError && message.includes(wantedError)) result.ok = true;
        else result.error = message;
      }
    }
    result.durationMs = Math.round(performance.now() - started);
    results.push(result);
  }
  return results;
}
