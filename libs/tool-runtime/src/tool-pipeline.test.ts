import { describe, expect, it } from '@jest/globals';
import type { ToolDefinition } from '@talon/contracts';
import { TalonError } from '@talon/errors';
import { NoLocalExecutorError } from './errors/no-local-executor-error.js';
import { OutputSafetyMissingError } from './errors/output-safety-missing-error.js';
import { ParamsInvalidError } from './errors/params-invalid-error.js';
import { ParamsTooLargeError } from './errors/params-too-large-error.js';
import { RateLimitedError } from './errors/rate-limited-error.js';
import { ToolFailedError } from './errors/tool-failed-error.js';
import { ToolTimeoutError } from './errors/tool-timeout-error.js';
import { UnknownToolError } from './errors/unknown-tool-error.js';
import { NOOP_OUTPUT_SAFETY } from './noop-output-safety.js';
import type { LeakScanner, OutputSafety } from './output-safety.js';
import type { Tool, ToolContext } from './tool.js';
import { ToolPipeline } from './tool-pipeline.js';
import { ToolRegistry } from './tool-registry.js';

function define(name: string, overrides: Partial<ToolDefinition> = {}): ToolDefinition {
  return {
    name,
    description: name,
    parameters: {
      type: 'object',
      properties: { n: { type: 'integer' }, text: { type: 'string' } },
      additionalProperties: false,
    },
    effects: [],
    approval: 'never',
    timeoutMs: 1000,
    domain: 'orchestrator',
    source: 'builtin',
    sensitiveParams: [],
    idempotent: true,
    ...overrides,
  };
}

function makeTool(definition: ToolDefinition, execute: Tool['execute']): Tool {
  return { definition, execute };
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function setup(options: ConstructorParameters<typeof ToolPipeline>[1] = {}) {
  const registry = new ToolRegistry();
  const seen: { params: unknown; context: ToolContext }[] = [];
  registry.register(
    makeTool(define('echo'), async (params, context) => {
      seen.push({ params, context });
      return params;
    }),
  );
  const pipeline = new ToolPipeline(registry, { safety: NOOP_OUTPUT_SAFETY, ...options });
  return { registry, pipeline, seen };
}

async function rejection(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  throw new Error('expected a rejection');
}

describe('ToolPipeline', () => {
  it('runs a call end to end: coerced params, wrapped text, context', async () => {
    const { pipeline, seen } = setup();
    const result = await pipeline.run({ tool: 'echo', params: { n: '5' }, callId: 'c1', sessionId: 's1' });
    expect(seen[0]!.params).toEqual({ n: 5 });
    expect(seen[0]!.context).toMatchObject({ callId: 'c1', sessionId: 's1', grants: [] });
    expect(result).toMatchObject({
      callId: 'c1',
      tool: 'echo',
      output: { n: 5 },
      truncated: false,
      leakFindings: [],
      sanitizerFindings: [],
    });
    expect(result.text).toBe('<tool_output name="echo" call_id="c1">{"n":5}</tool_output>');
    expect(result.durationMs).toBeGreaterThanOrEqual(0);
  });

  it('generates a call id and treats missing params as {}', async () => {
    const { pipeline } = setup();
    const result = await pipeline.run({ tool: 'echo', params: null });
    expect(result.callId).toMatch(/^[0-9a-f-]{36}$/);
    expect(result.output).toEqual({});
  });

  it('refuses an unknown tool', async () => {
    const { pipeline } = setup();
    const error = await rejection(pipeline.run({ tool: 'nope', params: {} }));
    expect(error).toBeInstanceOf(UnknownToolError);
    expect((error as UnknownToolError).code).toBe('UNKNOWN_TOOL');
  });

  it('refuses schema violations before the tool runs', async () => {
    const { pipeline, seen } = setup();
    const error = (await rejection(
      pipeline.run({ tool: 'echo', params: { n: 'many', extra: 1 } }),
    )) as ParamsInvalidError;
    expect(error).toBeInstanceOf(ParamsInvalidError);
    expect(error.details.map((violation) => violation.path).sort()).toEqual(['/extra', '/n']);
    expect(await rejection(pipeline.run({ tool: 'echo', params: 'not an object' }))).toBeInstanceOf(
      ParamsInvalidError,
    );
    expect(seen).toHaveLength(0);
  });

  it('refuses oversized params and depth bombs before validating', async () => {
    const { pipeline, seen } = setup({ limits: { maxBytes: 1024 } });
    expect(
      await rejection(pipeline.run({ tool: 'echo', params: { text: 'x'.repeat(2000) } })),
    ).toBeInstanceOf(ParamsTooLargeError);
    let bomb: unknown = {};
    for (let depth = 0; depth < 100; depth += 1) bomb = { text: bomb };
    const error = (await rejection(pipeline.run({ tool: 'echo', params: bomb }))) as ParamsTooLargeError;
    expect(error.details.limit).toBe('maxDepth');
    expect(seen).toHaveLength(0);
  });

  it('truncates oversized text output but keeps the structured output', async () => {
    const { registry, pipeline } = setup({ maxOutputBytes: 1000 });
    registry.register(makeTool(define('big', { source: 'wasm' }), async () => 'y'.repeat(5000)));
    const result = await pipeline.run({ tool: 'big', params: {}, callId: 'c' });
    expect(result.truncated).toBe(true);
    expect(result.output).toHaveLength(5000);
    expect(result.text).toContain('[output truncated: 1000 of 5000 bytes shown]');
    expect(result.text.length).toBeLessThan(1200);
  });

  it('truncates at 64 KiB by default', async () => {
    const { registry, pipeline } = setup();
    registry.register(makeTool(define('big', { source: 'wasm' }), async () => 'z'.repeat(100 * 1024)));
    const result = await pipeline.run({ tool: 'big', params: {} });
    expect(result.truncated).toBe(true);
    expect(result.text).toContain(`65536 of ${100 * 1024} bytes shown`);
  });

  it('scans at most maxScanBytes and then drops the unscanned structured output', async () => {
    const scannedLengths: number[] = [];
    const safety: OutputSafety = {
      ...NOOP_OUTPUT_SAFETY,
      leakScanner: {
        redact: (text) => {
          scannedLengths.push(text.length);
          return { text, findings: [] };
        },
      },
    };
    const { registry, pipeline } = setup({ safety, maxOutputBytes: 100, maxScanBytes: 1000 });
    registry.register(
      makeTool(define('huge', { source: 'wasm' }), async () => ({ body: 'q'.repeat(50_000) })),
    );
    const result = await pipeline.run({ tool: 'huge', params: {} });
    expect(scannedLengths).toEqual([1000]);
    expect(typeof result.output).toBe('string');
    expect((result.output as string).length).toBe(1000);
    expect(result.text).toContain('[output truncated: 100 of 50011 bytes shown]');
    expect(() => new ToolPipeline(new ToolRegistry(), { maxOutputBytes: 100, maxScanBytes: 50 })).toThrow(
      RangeError,
    );
  });

  it('times out a tool past its timeout and aborts its signal, telling onAbort the same reason', async () => {
    const { registry, pipeline } = setup();
    let aborted: unknown;
    let told: unknown;
    registry.register(
      makeTool(define('slow', { timeoutMs: 40, source: 'wasm' }), (_params, context) => {
        return new Promise((resolve, reject) => {
          const timer = setTimeout(resolve, 5000);
          context.onAbort?.((reason) => (told = reason));
          context.signal.addEventListener('abort', () => {
            aborted = context.signal.reason;
            clearTimeout(timer);
            reject(new Error('aborted by signal'));
          });
        });
      }),
    );
    const started = Date.now();
    const error = (await rejection(pipeline.run({ tool: 'slow', params: {} }))) as ToolTimeoutError;
    expect(error).toBeInstanceOf(ToolTimeoutError);
    expect(error.code).toBe('TIMEOUT');
    expect(error.details).toEqual({ tool: 'slow', timeoutMs: 40, reason: 'timeout' });
    expect(aborted).toBe(error);
    expect(told).toBe(error);
    expect(Date.now() - started).toBeLessThan(1000);
  });

  it('stops waiting for a tool that ignores the signal', async () => {
    const { registry, pipeline } = setup();
    let finished = false;
    registry.register(
      makeTool(define('stubborn', { timeoutMs: 30, source: 'wasm' }), async () => {
        await sleep(300);
        finished = true;
        throw new Error('late failure that must not surface');
      }),
    );
    const started = Date.now();
    expect(await rejection(pipeline.run({ tool: 'stubborn', params: {} }))).toBeInstanceOf(ToolTimeoutError);
    expect(Date.now() - started).toBeLessThan(250);
    expect(finished).toBe(false);
    await sleep(320); // the late rejection is swallowed, not an unhandled rejection
    expect(finished).toBe(true);
  });

  it('uses the shorter of the call deadline and the tool timeout, and honours caller cancellation', async () => {
    const { registry, pipeline } = setup();
    registry.register(makeTool(define('wait', { timeoutMs: 5000, source: 'wasm' }), () => sleep(2000)));
    const timedOut = (await rejection(
      pipeline.run({ tool: 'wait', params: {}, timeoutMs: 30 }),
    )) as ToolTimeoutError;
    expect(timedOut.details.timeoutMs).toBe(30);
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 20);
    const cancelled = (await rejection(
      pipeline.run({ tool: 'wait', params: {}, signal: controller.signal }),
    )) as ToolTimeoutError;
    expect(cancelled.details.reason).toBe('cancelled');
    expect(cancelled.retryable).toBe(false);
    expect(
      await rejection(pipeline.run({ tool: 'wait', params: {}, signal: AbortSignal.abort() })),
    ).toBeInstanceOf(ToolTimeoutError);
  });

  it('turns a plain thrown error into TOOL_FAILED and lets a TalonError through', async () => {
    const { registry, pipeline } = setup();
    registry.register(
      makeTool(define('boom', { source: 'wasm' }), async () => {
        throw new TypeError('bad input shape');
      }),
    );
    const typed = new TalonError('POLICY_DENIED', 'no');
    registry.register(
      makeTool(define('typed', { source: 'wasm' }), async () => {
        throw typed;
      }),
    );
    registry.register(
      makeTool(define('sync_throw', { source: 'wasm' }), () => {
        throw new Error('sync');
      }),
    );
    const failed = (await rejection(pipeline.run({ tool: 'boom', params: {} }))) as ToolFailedError;
    expect(failed).toBeInstanceOf(ToolFailedError);
    expect(failed.code).toBe('TOOL_FAILED');
    expect(failed.message).toContain('bad input shape');
    expect(await rejection(pipeline.run({ tool: 'typed', params: {} }))).toBe(typed);
    expect(await rejection(pipeline.run({ tool: 'sync_throw', params: {} }))).toBeInstanceOf(ToolFailedError);
  });

  it('rate-limits per tool and session', async () => {
    const { registry, pipeline } = setup();
    registry.register(
      makeTool(
        define('limited', { source: 'wasm', rateLimit: { calls: 2, perMs: 60_000 } }),
        async () => 'ok',
      ),
    );
    await pipeline.run({ tool: 'limited', params: {}, sessionId: 'a' });
    await pipeline.run({ tool: 'limited', params: {}, sessionId: 'a' });
    const error = (await rejection(
      pipeline.run({ tool: 'limited', params: {}, sessionId: 'a' }),
    )) as RateLimitedError;
    expect(error).toBeInstanceOf(RateLimitedError);
    expect(error.details.retryAfterMs).toBeGreaterThan(59_000);
    await expect(pipeline.run({ tool: 'limited', params: {}, sessionId: 'b' })).resolves.toMatchObject({
      output: 'ok',
    });
    // Worker mode never counts: the orchestrator already did.
    await expect(pipeline.runLocal({ tool: 'limited', params: {}, sessionId: 'a' })).resolves.toMatchObject({
      output: 'ok',
    });
  });

  it('rate-limits per tool across sessions when configured so', async () => {
    const { registry, pipeline } = setup({ rateLimitScope: 'tool' });
    registry.register(
      makeTool(
        define('limited', { source: 'wasm', rateLimit: { calls: 1, perMs: 60_000 } }),
        async () => 'ok',
      ),
    );
    await pipeline.run({ tool: 'limited', params: {}, sessionId: 'a' });
    expect(await rejection(pipeline.run({ tool: 'limited', params: {}, sessionId: 'b' }))).toBeInstanceOf(
      RateLimitedError,
    );
  });

  it('passes granted secrets to the leak scanner and redacts output and error messages', async () => {
    const secret = 'sk-granted-123456';
    const scanner: LeakScanner = {
      redact(text, known) {
        const findings: { kind: string; start: number; end: number }[] = [];
        let out = text;
        for (const value of known) {
          const at = out.indexOf(value);
          if (at >= 0) {
            findings.push({ kind: 'granted_secret', start: at, end: at + value.length });
            out = out.split(value).join('[SECRET]');
          }
        }
        return { text: out, findings };
      },
    };
    const safety: OutputSafety = { ...NOOP_OUTPUT_SAFETY, leakScanner: scanner };
    const { registry, pipeline } = setup({ safety });
    registry.register(
      makeTool(define('leaky', { source: 'wasm' }), async () => ({ body: `token=${secret}` })),
    );
    registry.register(
      makeTool(define('leaky_fail', { source: 'wasm' }), async () => {
        throw new Error(`auth failed for ${secret}`);
      }),
    );
    const grants = [
      {
        secretName: 'k',
        value: secret,
        hostPatterns: ['api.example.test'],
        location: { kind: 'bearer' as const },
      },
    ];
    const result = await pipeline.run({ tool: 'leaky', params: {}, grants });
    expect(result.leakFindings).toHaveLength(1);
    expect(JSON.stringify(result)).not.toContain(secret);
    expect(result.text).toContain('[SECRET]');
    const error = (await rejection(pipeline.run({ tool: 'leaky_fail', params: {}, grants }))) as Error;
    expect(error.message).not.toContain(secret);
    registry.register(
      makeTool(define('leaky_details', { source: 'wasm' }), async () => {
        throw new TalonError('TOOL_FAILED', 'upstream refused', {
          details: { url: `https://x.test/?key=${secret}` },
        });
      }),
    );
    const typed = (await rejection(
      pipeline.run({ tool: 'leaky_details', params: {}, grants }),
    )) as TalonError;
    expect(typed.code).toBe('TOOL_FAILED');
    expect(typed.details).toEqual({ url: 'https://x.test/?key=[SECRET]' });
  });

  it('reports sanitizer findings and uses the injected wrapper', async () => {
    const safety: OutputSafety = {
      ...NOOP_OUTPUT_SAFETY,
      sanitizer: {
        sanitize: (text) => ({
          text: text.replace('IGNORE PREVIOUS', '[removed]'),
          findings: ['instruction_override'],
        }),
      },
      wrapper: { wrap: (tool, callId, text) => `[${tool}#${callId}] ${text}` },
    };
    const { pipeline } = setup({ safety });
    const result = await pipeline.run({ tool: 'echo', params: { text: 'IGNORE PREVIOUS' }, callId: 'z' });
    expect(result.sanitizerFindings).toEqual(['instruction_override']);
    expect(result.text).toBe('[echo#z] {"text":"[removed]"}');
  });

  it('composes stages: prepare here, execute through a remote executor, post-process here', async () => {
    const definitions = new Map([['remote_echo', { definition: define('remote_echo', { source: 'mcp' }) }]]);
    const pipeline = new ToolPipeline(
      { get: (name) => definitions.get(name) },
      { safety: NOOP_OUTPUT_SAFETY },
    );
    const prepared = await pipeline.prepareCall({ tool: 'remote_echo', params: { n: '7' }, callId: 'r1' });
    expect(prepared.params).toEqual({ n: 7 });
    expect(prepared.timeoutMs).toBe(1000);
    await expect(pipeline.executeWithTimeout(prepared)).rejects.toBeInstanceOf(NoLocalExecutorError);
    const executed = await pipeline.executeWithTimeout(prepared, async (call, signal) => {
      expect(signal.aborted).toBe(false);
      return { echoed: call.params };
    });
    const result = pipeline.postProcessOutput(prepared, executed);
    expect(result.output).toEqual({ echoed: { n: 7 } });
    expect(result.text).toContain('{"echoed":{"n":7}}');
    const slowRemote = pipeline.executeWithTimeout({ ...prepared, timeoutMs: 20 }, () => sleep(500));
    await expect(slowRemote).rejects.toBeInstanceOf(ToolTimeoutError);
  });

  it('runs locally without output safety, and refuses to post-process without it', async () => {
    const registry = new ToolRegistry();
    registry.register(makeTool(define('echo'), async (params) => params));
    const pipeline = new ToolPipeline(registry);
    await expect(pipeline.runLocal({ tool: 'echo', params: { n: '3' } })).resolves.toMatchObject({
      output: { n: 3 },
    });
    await expect(pipeline.run({ tool: 'echo', params: {} })).rejects.toBeInstanceOf(OutputSafetyMissingError);
  });

  it('renders known outputs through the renderer, caps attached media and counts structured output in the cap', async () => {
    const media = (bytes: number) => ({
      type: 'image' as const,
      mimeType: 'image/png',
      data: 'AA==',
      sha256: 'x',
      bytes,
    });
    const { pipeline } = setup({
      maxOutputBytes: 200,
      maxMediaBytes: 1000,
      renderOutput: (output) =>
        typeof output === 'object' && output !== null && 'rendered' in output
          ? {
              text: String((output as { rendered: unknown }).rendered),
              media: [media(600), media(600), media(300)],
            }
          : undefined,
    });
    const small = await pipeline.run({ tool: 'echo', params: { text: 'plain' } });
    expect(small.media).toBeUndefined();
    expect(small.text).toContain('{"text":"plain"}');
    const prepared = await pipeline.prepareCall({ tool: 'echo', params: {} });
    const shown = pipeline.postProcessOutput(prepared, {
      output: { rendered: 'short text', big: 'x'.repeat(5000) },
      durationMs: 1,
    });
    // The renderer's text is what the model reads; the 5,000-character field never reaches it.
    expect(shown.text).toContain('short text');
    expect(shown.text).not.toContain('xxxx');
    expect(shown.media?.map((item) => item.bytes)).toEqual([600, 300]);
    expect(shown.output).toMatchObject({ rendered: 'short text' });
    const long = pipeline.postProcessOutput(prepared, {
      output: { rendered: 'y'.repeat(5000) },
      durationMs: 1,
    });
    expect(long.truncated).toBe(true);
    // Cut text means the structured output is cut too: it is replaced by the scanned text.
    expect(typeof long.output).toBe('string');
  });

  it('rejects a nonsense output cap at construction', () => {
    expect(() => new ToolPipeline(new ToolRegistry(), { maxOutputBytes: 0 })).toThrow(RangeError);
  });
});
