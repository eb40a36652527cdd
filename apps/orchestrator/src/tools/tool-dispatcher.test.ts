import { describe, expect, it } from '@jest/globals';
import type { ToolDefinition } from '@talon/contracts';
import { TalonError } from '@talon/errors';
import { CatalogWarmUp, NOOP_OUTPUT_SAFETY, ToolCatalog } from '@talon/tool-runtime';
import {
  NoRespondersError,
  RequestTimeoutError,
  WorkerLostError,
  type NatsRequester,
} from '@talon/service-runtime';
import { ToolDispatcher } from './tool-dispatcher.js';

function definition(name: string, idempotent: boolean): ToolDefinition {
  return {
    name,
    description: name,
    parameters: { type: 'object' },
    effects: [],
    approval: 'never',
    timeoutMs: 1000,
    domain: 'orchestrator',
    source: 'builtin',
    sensitiveParams: [],
    idempotent,
  };
}

/** A requester whose first `failures` calls fail with the given error, then answer. */
function flakyRequester(failures: number, error: () => Error) {
  const calls: string[] = [];
  const requester = {
    async request(subject: string) {
      calls.push(subject);
      if (calls.length <= failures) throw error();
      return { output: 'done', durationMs: 1, instanceId: `w${calls.length}` };
    },
  } as unknown as NatsRequester;
  return { requester, calls };
}

function dispatcherWith(
  requester: NatsRequester,
  tools: ToolDefinition[] = [definition('safe', true), definition('unsafe', false)],
) {
  const catalog = new ToolCatalog();
  catalog.announce({
    instanceId: 'w1',
    service: 'tool-worker',
    domain: 'orchestrator',
    ttlMs: 60_000,
    tools,
  });
  return new ToolDispatcher({ catalog, requester, safety: NOOP_OUTPUT_SAFETY });
}

describe('ToolDispatcher retries', () => {
  it('retries an idempotent tool once after a timeout and reports the attempts', async () => {
    const { requester, calls } = flakyRequester(
      1,
      () => new RequestTimeoutError('talon.tools.v1.call.orchestrator', 1250),
    );
    const reply = await dispatcherWith(requester).call({ tool: 'safe', params: {} });
    expect(reply).toMatchObject({ output: 'done', attempts: 2, instanceId: 'w2' });
    expect(calls).toHaveLength(2);
  });

  it('never retries a tool that is not idempotent', async () => {
    const { requester, calls } = flakyRequester(
      1,
      () => new RequestTimeoutError('talon.tools.v1.call.orchestrator', 1250),
    );
    const failure = await dispatcherWith(requester)
      .call({ tool: 'unsafe', params: {} })
      .catch((error) => error);
    expect(TalonError.isInstance(failure) && failure.code).toBe('TIMEOUT');
    expect(calls).toHaveLength(1);
  });

  it('gives up after the attempt budget with the last typed error', async () => {
    const { requester, calls } = flakyRequester(
      5,
      () => new NoRespondersError('talon.tools.v1.call.orchestrator'),
    );
    const failure = await dispatcherWith(requester)
      .call({ tool: 'safe', params: {} })
      .catch((error) => error);
    expect(TalonError.isInstance(failure) && failure.code).toBe('NO_RESPONDERS');
    expect(calls).toHaveLength(2);
  });

  it('does not retry a tool failure', async () => {
    const { requester, calls } = flakyRequester(1, () => new TalonError('TOOL_FAILED', 'bad input'));
    const failure = await dispatcherWith(requester)
      .call({ tool: 'safe', params: {} })
      .catch((error) => error);
    expect(TalonError.isInstance(failure) && failure.code).toBe('TOOL_FAILED');
    expect(calls).toHaveLength(1);
  });
});

describe('ToolDispatcher failover and warm-up', () => {
  it('retries an idempotent tool whose worker was lost; a non-idempotent one fails WORKER_LOST', async () => {
    const lost = () => new WorkerLostError('x', 'c1', 'gone', 'w1');
    const safe = flakyRequester(1, lost);
    const reply = await dispatcherWith(safe.requester).call({ tool: 'safe' });
    expect(reply.attempts).toBe(2);
    const unsafe = flakyRequester(1, lost);
    await expect(dispatcherWith(unsafe.requester).call({ tool: 'unsafe' })).rejects.toMatchObject({
      code: 'WORKER_LOST',
      retryable: true,
    });
    expect(unsafe.calls).toHaveLength(1);
  });

  it('while the catalog warms up, waits for a missing tool and then answers UNAVAILABLE, never UNKNOWN_TOOL', async () => {
    const { requester } = flakyRequester(0, () => new Error('unused'));
    const catalog = new ToolCatalog();
    const warmUp = new CatalogWarmUp(60_000);
    warmUp.begin(Date.now());
    const dispatcher = new ToolDispatcher({ catalog, requester, safety: NOOP_OUTPUT_SAFETY, warmUp });
    expect(() => dispatcher.check({ tool: 'later' })).toThrow(
      expect.objectContaining({ code: 'UNAVAILABLE' }),
    );
    // Announced while the call waits: it runs.
    const pending = dispatcher.call({ tool: 'later' });
    setTimeout(
      () =>
        catalog.announce({
          instanceId: 'w1',
          service: 'tool-worker',
          domain: 'orchestrator',
          ttlMs: 60_000,
          tools: [definition('later', true)],
        }),
      50,
    );
    await expect(pending).resolves.toMatchObject({ output: 'done' });
    await expect(dispatcher.call({ tool: 'never' })).rejects.toMatchObject({
      code: 'UNAVAILABLE',
      retryable: true,
    });
  });

  it('once warm, an unknown tool is UNKNOWN_TOOL', async () => {
    const { requester } = flakyRequester(0, () => new Error('unused'));
    const dispatcher = new ToolDispatcher({
      catalog: new ToolCatalog(),
      requester,
      safety: NOOP_OUTPUT_SAFETY,
      warmUp: new CatalogWarmUp(1),
    });
    await expect(dispatcher.call({ tool: 'nope' })).rejects.toMatchObject({ code: 'UNKNOWN_TOOL' });
  });
});

describe('ToolDispatcher approval assessment', () => {
  function assessing(approvalByCall: boolean | undefined) {
    const subjects: string[] = [];
    const requester = {
      async request(subject: string) {
        subjects.push(subject);
        return { approval: 'always', reasons: ['the domain read the params'] };
      },
    } as unknown as NatsRequester;
    const judged = {
      ...definition('judged', false),
      ...(approvalByCall === undefined ? {} : { approvalByCall }),
    };
    return { dispatcher: dispatcherWith(requester, [judged]), subjects };
  }

  it('asks the domain when the tool judges each call, or when its worker does not say', async () => {
    for (const approvalByCall of [true, undefined]) {
      const { dispatcher, subjects } = assessing(approvalByCall);
      expect(await dispatcher.assessApproval('judged', { path: '/etc' })).toEqual({
        approval: 'always',
        reasons: ['the domain read the params'],
      });
      expect(subjects).toEqual(['talon.tools.v1.approval.orchestrator']);
    }
  });

  it('does not ask when the declared requirement is the whole answer (the declared one applies)', async () => {
    const { dispatcher, subjects } = assessing(false);
    expect(await dispatcher.assessApproval('judged', { path: '/etc' })).toBeUndefined();
    expect(subjects).toEqual([]);
  });
});
