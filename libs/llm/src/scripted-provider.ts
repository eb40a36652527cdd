import { LlmScriptExhaustedError } from './errors/llm-script-exhausted-error.js';
import { LlmScriptMismatchError } from './errors/llm-script-mismatch-error.js';
import { checkLlmScriptExpectation } from './llm-script-expectations.js';
import { loadLlmScriptFile, parseLlmScript, type LlmScript, type LlmScriptReply } from './llm-script.js';
import type { LlmCallOptions, LlmProvider } from './llm-provider.js';
import { LLM_STOP_REASONS, type LlmRequest, type LlmStreamEvent } from './llm-types.js';
import { parseToolCallArguments } from './tool-call-arguments.js';
import { sleepUnlessAborted } from './llm-retry-policy.js';

/**
 * A model that follows a script: each call takes the next step, checks the step's expectations
 * against the request (a mismatch throws {@link LlmScriptMismatchError} naming the step) and streams
 * the step's reply. No network; for tests, demos and benchmarks. Steps are taken in call order.
 */
export class ScriptedProvider implements LlmProvider {
  readonly name = 'scripted';
  readonly model: string;
  private readonly script: LlmScript;
  private nextStep = 0;
  private calls = 0;

  /** @param script a script object, validated here against `LlmScriptSchema`; `source` names it in errors */
  constructor(script: unknown, source?: string) {
    this.script = parseLlmScript(script, source);
    this.model = this.script.model ?? 'scripted';
  }

  /** Loads a JSON script file (see `LlmScriptSchema` for the format). */
  static fromFile(file: string): ScriptedProvider {
    return new ScriptedProvider(loadLlmScriptFile(file), file);
  }

  /** How many calls have taken a step so far. */
  get callCount(): number {
    return this.calls;
  }

  /** Steps not yet used (always the full count again after a loop restarts). */
  get remainingSteps(): number {
    return this.script.steps.length - this.nextStep;
  }

  stream(request: LlmRequest, options: LlmCallOptions = {}): AsyncIterable<LlmStreamEvent> {
    // The step is taken when the call is made, not when iteration starts, so call order decides.
    const taken = this.takeStep(request);
    return this.replay(taken, options.signal);
  }

  private takeStep(request: LlmRequest): { index: number; reply: LlmScriptReply } | Error {
    const steps = this.script.steps;
    if (this.nextStep >= steps.length) {
      if (!this.script.loop) return new LlmScriptExhaustedError(steps.length);
      this.nextStep = 0;
    }
    const index = this.nextStep;
    const step = steps[index]!;
    const failures = checkLlmScriptExpectation(step.expect, request);
    if (failures.length > 0) return new LlmScriptMismatchError(index + 1, step.name, failures);
    this.nextStep++;
    this.calls++;
    return { index, reply: step.reply };
  }

  private async *replay(
    taken: { index: number; reply: LlmScriptReply } | Error,
    signal: AbortSignal | undefined,
  ): AsyncGenerator<LlmStreamEvent> {
    if (taken instanceof Error) throw taken;
    const { index, reply } = taken;
    const pause = async () => {
      if (reply.delayMs) await sleepUnlessAborted(reply.delayMs, signal);
      if (signal?.aborted) throw signal.reason;
    };
    let outputTokens = 0;
    for (const text of typeof reply.text === 'string' ? splitWords(reply.text) : (reply.text ?? [])) {
      await pause();
      outputTokens++;
      yield { type: 'text_delta', text };
    }
    const calls = reply.toolCalls ?? [];
    for (const [position, call] of calls.entries()) {
      await pause();
      const id = call.id ?? `call_${index + 1}_${position + 1}`;
      outputTokens++;
      if (call.arguments !== undefined) {
        yield { type: 'tool_call', toolCall: { id, name: call.name, arguments: call.arguments } };
        continue;
      }
      const raw = call.rawArguments ?? '';
      const parsed = parseToolCallArguments(call.name, raw);
      yield parsed.ok
        ? { type: 'tool_call', toolCall: { id, name: call.name, arguments: parsed.value } }
        : { type: 'tool_call_malformed', id, name: call.name, rawArguments: raw, message: parsed.message };
    }
    yield { type: 'usage', usage: reply.usage ?? { inputTokens: 0, outputTokens } };
    yield {
      type: 'done',
      stopReason:
        reply.stopReason ?? (calls.length > 0 ? LLM_STOP_REASONS.toolCalls : LLM_STOP_REASONS.endTurn),
    };
  }
}

/** Splits text into words that keep their trailing spaces, so the deltas join back exactly. */
function splitWords(text: string): string[] {
  return text.match(/\s*\S+\s*/g) ?? (text === '' ? [] : [text]);
}
