import { readFileSync } from 'node:fs';
import { Type, type Static } from '@sinclair/typebox';
import { Value } from '@sinclair/typebox/value';
import { LlmScriptInvalidError } from './errors/llm-script-invalid-error.js';
import { LLM_STOP_REASONS } from './llm-types.js';

const NonEmptyString = Type.String({ minLength: 1 });

/** What a step checks in the request it receives; every listed check must hold. */
export const LlmScriptExpectationSchema = Type.Object(
  {
    /** The last user message contains this text. */
    lastUserMessageContains: Type.Optional(Type.String()),
    /** The joined system messages contain this text. */
    systemContains: Type.Optional(Type.String()),
    /** The request carries a tool result for `callId` whose content contains `contains`. */
    toolResults: Type.Optional(
      Type.Array(
        Type.Object({ callId: NonEmptyString, contains: Type.String() }, { additionalProperties: false }),
      ),
    ),
    /** These tool names are offered to the model. */
    toolsInclude: Type.Optional(Type.Array(NonEmptyString)),
    /** These tool names are not offered to the model. */
    toolsExclude: Type.Optional(Type.Array(NonEmptyString)),
  },
  { additionalProperties: false },
);

/** A tool call the scripted model makes: parsed `arguments`, or `rawArguments` to simulate malformed JSON. */
export const LlmScriptToolCallSchema = Type.Object(
  {
    /** Default `call_<step>_<position>`. */
    id: Type.Optional(NonEmptyString),
    name: NonEmptyString,
    arguments: Type.Optional(Type.Record(Type.String(), Type.Unknown())),
    rawArguments: Type.Optional(Type.String()),
  },
  { additionalProperties: false },
);

/** What the scripted model answers. */
export const LlmScriptReplySchema = Type.Object(
  {
    /** A string is streamed word by word; an array is streamed one element per delta. */
    text: Type.Optional(Type.Union([Type.String(), Type.Array(Type.String())])),
    toolCalls: Type.Optional(Type.Array(LlmScriptToolCallSchema)),
    usage: Type.Optional(
      Type.Object({ inputTokens: Type.Integer({ minimum: 0 }), outputTokens: Type.Integer({ minimum: 0 }) }),
    ),
    /** Default `tool_calls` when the reply has tool calls, else `end_turn`. */
    stopReason: Type.Optional(
      Type.Union(Object.values(LLM_STOP_REASONS).map((reason) => Type.Literal(reason))),
    ),
    /** Pause between deltas, for demos. Default 0. */
    delayMs: Type.Optional(Type.Integer({ minimum: 0, maximum: 60_000 })),
  },
  { additionalProperties: false },
);

/** One expected model call and its reply. */
export const LlmScriptStepSchema = Type.Object(
  {
    /** Named in mismatch errors. */
    name: Type.Optional(Type.String()),
    expect: Type.Optional(LlmScriptExpectationSchema),
    reply: LlmScriptReplySchema,
  },
  { additionalProperties: false },
);

/**
 * A scripted-provider file: the model calls expected in order, each with its reply. Example
 * (`libs/llm/test/fixtures/echo-conversation.json`):
 *
 *   { "steps": [
 *     { "name": "calls echo", "expect": { "lastUserMessageContains": "echo", "toolsExclude": ["shell"] },
 *       "reply": { "text": "I'll echo that.", "toolCalls": [{ "id": "call_1", "name": "echo", "arguments": { "text": "hi" } }] } },
 *     { "expect": { "toolResults": [{ "callId": "call_1", "contains": "hi" }] },
 *       "reply": { "text": "The echo tool answered: hi." } } ] }
 */
export const LlmScriptSchema = Type.Object(
  {
    /** Reported as the provider's model. Default `scripted`. */
    model: Type.Optional(NonEmptyString),
    /** Start over after the last step instead of failing (benchmarks, endless demos). Default false. */
    loop: Type.Optional(Type.Boolean()),
    steps: Type.Array(LlmScriptStepSchema, { minItems: 1 }),
  },
  { additionalProperties: false },
);

/** A parsed script. */
export type LlmScript = Static<typeof LlmScriptSchema>;
/** One step of a script. */
export type LlmScriptStep = Static<typeof LlmScriptStepSchema>;
/** A step's checks. */
export type LlmScriptExpectation = Static<typeof LlmScriptExpectationSchema>;
/** A step's reply. */
export type LlmScriptReply = Static<typeof LlmScriptReplySchema>;

/** Validates a script object; `source` names it in the error. */
export function parseLlmScript(value: unknown, source = 'inline script'): LlmScript {
  if (!Value.Check(LlmScriptSchema, value)) {
    const problems = [...Value.Errors(LlmScriptSchema, value)]
      .slice(0, 5)
      .map((error) => `${error.path || '/'} ${error.message}`);
    throw new LlmScriptInvalidError(source, problems);
  }
  value.steps.forEach((step, index) => {
    for (const call of step.reply.toolCalls ?? []) {
      if ((call.arguments === undefined) === (call.rawArguments === undefined)) {
        throw new LlmScriptInvalidError(source, [
          `/steps/${index}: tool call "${call.name}" needs exactly one of arguments or rawArguments`,
        ]);
      }
    }
  });
  return value;
}

/** Reads and validates a JSON script file. */
export function loadLlmScriptFile(file: string): LlmScript {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    throw new LlmScriptInvalidError(file, [`cannot read the file (${(error as Error).message})`], error);
  }
  let value: unknown;
  try {
    value = JSON.parse(text.replace(/^\uFEFF/, ''));
  } catch (error) {
    throw new LlmScriptInvalidError(file, [`not valid JSON (${(error as Error).message})`], error);
  }
  return parseLlmScript(value, file);
}
