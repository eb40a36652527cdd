import { describe, expect, it } from '@jest/globals';
import {
  NOOP_OUTPUT_SAFETY,
  ParamsInvalidError,
  ToolPipeline,
  ToolRegistry,
  ToolTimeoutError,
} from '@talon/tool-runtime';
import { createEchoTool, ECHO_MAX_DELAY_MS } from './echo-tool.js';

function pipeline() {
  const registry = new ToolRegistry();
  registry.register(createEchoTool());
  return new ToolPipeline(registry, { safety: NOOP_OUTPUT_SAFETY });
}

describe('echo tool', () => {
  it('is a side-effect-free, idempotent built-in for the orchestrator domain', () => {
    const { definition } = createEchoTool();
    expect(definition).toMatchObject({
      name: 'echo',
      effects: [],
      approval: 'never',
      domain: 'orchestrator',
      source: 'builtin',
      idempotent: true,
    });
    expect(definition.timeoutMs).toBeGreaterThan(ECHO_MAX_DELAY_MS);
  });

  it('returns the message unchanged', async () => {
    const result = await pipeline().run({ tool: 'echo', params: { message: 'héllo <b>' }, callId: 'c' });
    expect(result.output).toBe('héllo <b>');
  });

  it('waits delayMs (coerced from a string) before answering', async () => {
    const started = performance.now();
    const result = await pipeline().runLocal({ tool: 'echo', params: { message: 'x', delayMs: '20' } });
    expect(result.output).toBe('x');
    expect(performance.now() - started).toBeGreaterThanOrEqual(19);
  });

  it('stops waiting when the call is aborted', async () => {
    const controller = new AbortController();
    const tool = createEchoTool();
    setTimeout(() => controller.abort(), 20);
    const started = performance.now();
    await expect(
      tool.execute(
        { message: 'x', delayMs: 5000 },
        { callId: 'c', signal: controller.signal, grants: [], log: () => undefined },
      ),
    ).rejects.toMatchObject({ name: 'AbortError' });
    expect(performance.now() - started).toBeLessThan(1000);
    const timedOut = pipeline().runLocal({
      tool: 'echo',
      params: { message: 'x', delayMs: 5000 },
      timeoutMs: 30,
    });
    await expect(timedOut).rejects.toBeInstanceOf(ToolTimeoutError);
  });

  it('refuses a missing message, a negative or too long delay, and unknown params', async () => {
    const run = pipeline();
    for (const params of [
      {},
      { message: 'x', delayMs: -1 },
      { message: 'x', delayMs: ECHO_MAX_DELAY_MS + 1 },
      { message: 'x', loud: true },
    ]) {
      await expect(run.runLocal({ tool: 'echo', params })).rejects.toBeInstanceOf(ParamsInvalidError);
    }
  });
});
