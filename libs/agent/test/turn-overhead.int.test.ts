/**
 * Measures the loop's own overhead per turn: a scripted model asking for three no-op tool calls, then
 * answering. Overhead = turn wall time − time inside the provider's stream − time inside the tool
 * caller. Prints p50/p99 in µs (last line JSON) and checks the 10 ms p50 target.
 */
import { describe, expect, it } from '@jest/globals';
import type { ToolsCallReply } from '@talon/contracts';
import {
  ScriptedProvider,
  type LlmCallOptions,
  type LlmProvider,
  type LlmRequest,
  type LlmStreamEvent,
} from '@talon/llm';
import {
  ApprovalQueue,
  InMemoryApprovalStore,
  InMemoryGrantStore,
  InMemorySessionStore,
  TurnRunner,
  type AgentToolCall,
  type ToolCaller,
} from '../src/index.js';
import { MutableToolSource, toolDef } from './support/agent-fixtures.js';

class TimedProvider implements LlmProvider {
  readonly name = 'timed';
  readonly model = 'scripted';
  ms = 0;
  constructor(private readonly inner: LlmProvider) {}
  stream(request: LlmRequest, options?: LlmCallOptions): AsyncIterable<LlmStreamEvent> {
    const started = performance.now();
    const iterator = this.inner.stream(request, options)[Symbol.asyncIterator]();
    this.ms += performance.now() - started;
    return {
      [Symbol.asyncIterator]: () => ({
        next: async () => {
          const at = performance.now();
          try {
            return await iterator.next();
          } finally {
            this.ms += performance.now() - at;
          }
        },
      }),
    };
  }
}

class NoopCaller implements ToolCaller {
  ms = 0;
  async call(call: AgentToolCall): Promise<ToolsCallReply> {
    const at = performance.now();
    const reply = {
      callId: call.callId,
      tool: call.tool,
      output: null,
      text: '<tool_output>ok</tool_output>',
      truncated: false,
      redactions: [],
      durationMs: 0,
      attempts: 1,
    };
    this.ms += performance.now() - at;
    return reply;
  }
}

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
}

async function measure(turns: number, sameSession: boolean) {
  const provider = new TimedProvider(
    new ScriptedProvider({
      loop: true,
      steps: [
        {
          reply: {
            text: 'Calling three.',
            toolCalls: [1, 2, 3].map((n) => ({ name: 'echo', arguments: { text: `t${n}` } })),
          },
        },
        { reply: { text: 'All three answered.' } },
      ],
    }),
  );
  const caller = new NoopCaller();
  const grants = new InMemoryGrantStore();
  const runner = new TurnRunner({
    provider,
    tools: new MutableToolSource([toolDef('echo'), toolDef('time'), toolDef('json')]),
    caller,
    sessions: new InMemorySessionStore(),
    approvals: new ApprovalQueue(new InMemoryApprovalStore(), grants),
    grants,
  });
  const overheads: number[] = [];
  const totals: number[] = [];
  for (let turn = 0; turn < turns; turn++) {
    const modelBefore = provider.ms;
    const toolsBefore = caller.ms;
    const started = performance.now();
    const result = await runner.run({
      sessionId: sameSession ? 'bench' : `bench-${turn}`,
      message: 'echo three times',
      onEvent: () => undefined,
    });
    const total = performance.now() - started;
    if (result.reason !== 'final_answer') throw new Error(`turn ended with ${result.reason}`);
    totals.push(total * 1000);
    overheads.push((total - (provider.ms - modelBefore) - (caller.ms - toolsBefore)) * 1000);
  }
  overheads.sort((a, b) => a - b);
  totals.sort((a, b) => a - b);
  const round = (value: number) => Math.round(value);
  return {
    turns,
    overheadP50Us: round(percentile(overheads, 50)),
    overheadP99Us: round(percentile(overheads, 99)),
    turnP50Us: round(percentile(totals, 50)),
    turnP99Us: round(percentile(totals, 99)),
  };
}

describe('turn overhead (scripted model, three no-op tool calls per turn)', () => {
  it('stays well under 10 ms per turn at p50', async () => {
    await measure(300, false); // warm-up
    const fresh = await measure(2000, false);
    const growing = await measure(500, true);
    console.log(
      JSON.stringify({ bench: 'agent-turn-overhead', freshSession: fresh, growingSession: growing }),
    );
    expect(fresh.overheadP50Us).toBeLessThan(10_000);
    expect(growing.overheadP50Us).toBeLessThan(10_000);
  });
});
