import { describe, expect, it } from '@jest/globals';
import { ERROR_CODES } from '@talon/contracts';
import { TalonError } from '@talon/errors';
import { ScriptedProvider } from '@talon/llm';
import {
  activeSkill,
  buildRunner,
  FixedSkillAdvisor,
  MutableToolSource,
  RecordingToolCaller,
  toolDef,
  typesOf,
} from '../test/support/agent-fixtures.js';
import type { ApprovalRequestedEvent, ToolCallFinishedEvent } from './agent-events.js';
import type { SkillAdvisor } from './skill-advisor.js';

describe('TurnRunner', () => {
  it('runs a full turn with two tool calls in parallel and persists every message', async () => {
    const provider = new ScriptedProvider({
      steps: [
        {
          expect: {
            lastUserMessageContains: 'echo twice',
            toolsInclude: ['echo'],
            systemContains: 'untrusted data',
          },
          reply: {
            text: 'Echoing.',
            toolCalls: [
              { id: 'c1', name: 'echo', arguments: { text: 'one' } },
              { id: 'c2', name: 'echo', arguments: { text: 'two' } },
            ],
            usage: { inputTokens: 10, outputTokens: 3 },
          },
        },
        {
          expect: {
            toolResults: [
              { callId: 'c1', contains: 'one' },
              { callId: 'c2', contains: 'two' },
            ],
          },
          reply: { text: 'Got one and two.', usage: { inputTokens: 20, outputTokens: 5 } },
        },
      ],
    });
    const caller = new RecordingToolCaller(40);
    const t = buildRunner({ provider, caller, runner: { workspacePrompt: 'Be brief.' } });
    const result = await t.runner.run({ sessionId: 's1', message: 'please echo twice', onEvent: t.onEvent });

    expect(result).toMatchObject({
      reason: 'final_answer',
      content: 'Got one and two.',
      iterations: 2,
      usage: { inputTokens: 30, outputTokens: 8 },
    });
    const [first, second] = caller.calls;
    expect(first!.startedAt).toBeLessThan(second!.endedAt);
    expect(second!.startedAt).toBeLessThan(first!.endedAt);
    expect(typesOf(t.events)).toEqual([
      'turn_started',
      'text_delta',
      'usage',
      'tool_call_started',
      'tool_call_started',
      'tool_call_finished',
      'tool_call_finished',
      'text_delta',
      'text_delta',
      'text_delta',
      'text_delta',
      'usage',
      'message',
      'usage',
      'turn_finished',
    ]);
    expect(t.events.at(-2)).toMatchObject({
      type: 'usage',
      scope: 'turn',
      usage: { inputTokens: 30, outputTokens: 8 },
    });
    const log = await t.sessions.load('s1');
    expect(log.map((stored) => [stored.seq, stored.message.role])).toEqual([
      [1, 'user'],
      [2, 'assistant'],
      [3, 'tool'],
      [4, 'tool'],
      [5, 'assistant'],
    ]);
    expect(log.every((stored) => stored.turnId === result.turnId)).toBe(true);
    expect(log[2]!.message).toMatchObject({ role: 'tool', toolCallId: 'c1', toolName: 'echo' });

    // The next turn replays the history, with a fresh system prompt first.
    const next = new ScriptedProvider({
      steps: [
        { expect: { toolResults: [{ callId: 'c1', contains: 'one' }] }, reply: { text: 'Still here.' } },
      ],
    });
    const again = buildRunner({ provider: next, sessions: t.sessions });
    expect((await again.runner.run({ sessionId: 's1', message: 'and now?' })).content).toBe('Still here.');
    expect(await t.sessions.load('s1')).toHaveLength(7);
  });

  it('asks for approval, runs the call once approved, and runs sequentially', async () => {
    const provider = new ScriptedProvider({
      steps: [
        {
          reply: {
            toolCalls: [
              { id: 'w1', name: 'write_file', arguments: { text: 'a' } },
              { id: 'e1', name: 'echo', arguments: { text: 'b' } },
            ],
          },
        },
        {
          expect: {
            toolResults: [
              { callId: 'w1', contains: 'write_file:' },
              { callId: 'e1', contains: 'echo:' },
            ],
          },
          reply: { text: 'Written.' },
        },
      ],
    });
    const tools = new MutableToolSource([toolDef('echo'), toolDef('write_file', ['write_filesystem'])]);
    const t = buildRunner({ provider, tools });
    const result = await t.runner.run({
      sessionId: 's1',
      message: 'write a',
      onEvent: (event) => {
        t.onEvent(event);
        if (event.type === 'approval_requested')
          void t.approvals.resolve(event.approvalId, 'approve', 'person:ana');
      },
    });
    expect(result.reason).toBe('final_answer');
    const types = typesOf(t.events);
    expect(types.slice(1, 7)).toEqual([
      'usage',
      'approval_requested',
      'approval_resolved',
      'tool_call_started',
      'tool_call_finished',
      'tool_call_started',
    ]);
    const requested = t.events.find((event) => event.type === 'approval_requested') as ApprovalRequestedEvent;
    expect(requested).toMatchObject({
      tool: 'write_file',
      callId: 'w1',
      reason: expect.stringContaining('write_filesystem'),
    });
    expect(t.caller.calls.map((entry) => entry.call.tool)).toEqual(['write_file', 'echo']);
    expect(await t.approvals.listPending('s1')).toHaveLength(0);
  });

  it('validates before asking: a call the caller rejects is refused with its code and nobody is asked', async () => {
    const provider = new ScriptedProvider({
      steps: [
        {
          reply: {
            toolCalls: [
              { id: 'w1', name: 'write_file', arguments: { path: 42 } },
              { id: 'e1', name: 'echo', arguments: { text: 'b' } },
            ],
          },
        },
        {
          expect: { toolResults: [{ callId: 'w1', contains: 'SCHEMA_VIOLATION' }] },
          reply: { text: 'Fixed nothing.' },
        },
      ],
    });
    const caller = new RecordingToolCaller();
    const checked: string[] = [];
    Object.assign(caller, {
      check: (call: { tool: string; params: Record<string, unknown> }) => {
        checked.push(call.tool);
        if (call.tool === 'write_file' && typeof call.params.path !== 'string')
          throw new TalonError(ERROR_CODES.SCHEMA_VIOLATION, '/path must be string');
      },
    });
    const tools = new MutableToolSource([toolDef('echo'), toolDef('write_file', ['write_filesystem'])]);
    const t = buildRunner({ provider, tools, caller });
    const result = await t.runner.run({ sessionId: 's1', message: 'write', onEvent: t.onEvent });
    expect(result.reason).toBe('final_answer');
    expect(checked).toEqual(['write_file', 'echo']);
    expect(typesOf(t.events)).not.toContain('approval_requested');
    expect(await t.approvals.listPending('s1')).toHaveLength(0);
    const finished = t.events.filter(
      (event) => event.type === 'tool_call_finished',
    ) as ToolCallFinishedEvent[];
    expect(finished.find((event) => event.callId === 'w1')).toMatchObject({
      ok: false,
      code: 'SCHEMA_VIOLATION',
    });
    expect(caller.calls.map((entry) => entry.call.tool)).toEqual(['echo']);
  });

  it('a denied approval becomes an error result the model sees; the tool never runs', async () => {
    const provider = new ScriptedProvider({
      steps: [
        { reply: { toolCalls: [{ id: 'w1', name: 'write_file', arguments: { text: 'a' } }] } },
        {
          expect: { toolResults: [{ callId: 'w1', contains: 'POLICY_DENIED' }] },
          reply: { text: 'I was not allowed.' },
        },
      ],
    });
    const t = buildRunner({
      provider,
      tools: new MutableToolSource([toolDef('write_file', ['write_filesystem'])]),
    });
    const result = await t.runner.run({
      sessionId: 's1',
      message: 'write',
      onEvent: (event) => {
        t.onEvent(event);
        if (event.type === 'approval_requested')
          void t.approvals.resolve(event.approvalId, 'deny', 'person:ana');
      },
    });
    expect(result.content).toBe('I was not allowed.');
    expect(t.caller.calls).toHaveLength(0);
    expect(t.events.find((event) => event.type === 'approval_resolved')).toMatchObject({
      decision: 'deny',
      approved: false,
      resolvedBy: 'person:ana',
    });
    const log = await t.sessions.load('s1');
    expect(log[2]!.message).toMatchObject({
      role: 'tool',
      isError: true,
      content: expect.stringContaining('denied by person:ana'),
    });
  });

  it('approve_always sticks for the next call of that tool in the same turn and session', async () => {
    const provider = new ScriptedProvider({
      steps: [
        {
          reply: {
            toolCalls: [
              { id: 'w1', name: 'write_file', arguments: { text: 'a' } },
              { id: 'w2', name: 'write_file', arguments: { text: 'b' } },
            ],
          },
        },
        { reply: { toolCalls: [{ id: 'w3', name: 'write_file', arguments: { text: 'c' } }] } },
        { reply: { text: 'done' } },
      ],
    });
    const t = buildRunner({
      provider,
      tools: new MutableToolSource([toolDef('write_file', ['write_filesystem'])]),
    });
    await t.runner.run({
      sessionId: 's1',
      message: 'write thrice',
      onEvent: (event) => {
        t.onEvent(event);
        if (event.type === 'approval_requested')
          void t.approvals.resolve(event.approvalId, 'approve_always', 'person:ana');
      },
    });
    expect(typesOf(t.events).filter((type) => type === 'approval_requested')).toHaveLength(1);
    expect(t.caller.calls).toHaveLength(3);
  });

  it('refuses at dispatch a tool the skill ceiling removed, even though the model calls it', async () => {
    const provider = new ScriptedProvider({
      steps: [
        {
          expect: {
            toolsInclude: ['read_file'],
            toolsExclude: ['shell'],
            systemContains: '<skill name="notes">',
          },
          reply: {
            toolCalls: [
              { id: 'x1', name: 'shell', arguments: { text: 'rm -rf /' } },
              { id: 'r1', name: 'read_file', arguments: { text: 'a' } },
            ],
          },
        },
        {
          expect: {
            toolResults: [
              { callId: 'x1', contains: 'removed by skill attenuation' },
              { callId: 'r1', contains: 'read_file:' },
            ],
          },
          reply: { text: 'ok' },
        },
      ],
    });
    const tools = new MutableToolSource([
      toolDef('read_file', ['read_filesystem']),
      toolDef('shell', ['execute_code']),
    ]);
    const skills = new FixedSkillAdvisor([activeSkill('notes', 'INSTALLED')], new Set(['read_file']));
    const t = buildRunner({ provider, tools, skills });
    const result = await t.runner.run({ sessionId: 's1', message: 'take notes', onEvent: t.onEvent });
    expect(result.reason).toBe('final_answer');
    expect(t.caller.calls.map((entry) => entry.call.tool)).toEqual(['read_file']);
    expect(t.events.find((event) => event.type === 'skills_selected')).toMatchObject({
      skills: [{ name: 'notes', trust: 'INSTALLED' }],
      removedTools: [{ name: 'shell' }],
    });
    const refused = t.events.find(
      (event) => event.type === 'tool_call_finished' && event.tool === 'shell',
    ) as ToolCallFinishedEvent;
    expect(refused).toMatchObject({ ok: false, code: 'POLICY_DENIED', policy: { action: 'deny' } });
    expect(t.events.some((event) => event.type === 'approval_requested')).toBe(false);
  });

  it('sees a tool installed mid-turn on the next model call', async () => {
    const provider = new ScriptedProvider({
      steps: [
        {
          expect: { toolsExclude: ['time_now'] },
          reply: { toolCalls: [{ id: 'i1', name: 'install', arguments: { text: 'time_now' } }] },
        },
        {
          expect: { toolsInclude: ['time_now'] },
          reply: { toolCalls: [{ id: 't1', name: 'time_now', arguments: {} }] },
        },
        { expect: { toolResults: [{ callId: 't1', contains: 'time_now:' }] }, reply: { text: 'It is now.' } },
      ],
    });
    const tools = new MutableToolSource([toolDef('install')]);
    const caller = new RecordingToolCaller();
    caller.hooks.install = () => tools.add(toolDef('time_now'));
    const t = buildRunner({ provider, tools, caller, skills: new FixedSkillAdvisor([activeSkill('clock')]) });
    const result = await t.runner.run({ sessionId: 's1', message: 'install a clock and ask it' });
    expect(result).toMatchObject({ reason: 'final_answer', iterations: 3 });
    expect(tools.listCalls).toBeGreaterThanOrEqual(3);
  });

  it('stops at the iteration cap with a clear final event and a valid history', async () => {
    const provider = new ScriptedProvider({
      loop: true,
      steps: [{ reply: { toolCalls: [{ name: 'echo', arguments: { text: 'again' } }] } }],
    });
    const t = buildRunner({ provider, runner: { maxIterations: 3 } });
    const result = await t.runner.run({ sessionId: 's1', message: 'loop forever', onEvent: t.onEvent });
    expect(result).toMatchObject({ reason: 'iteration_cap', iterations: 3 });
    expect(result.content).toBeUndefined();
    expect(t.events.at(-1)).toMatchObject({
      type: 'turn_finished',
      reason: 'iteration_cap',
      detail: expect.stringContaining('3 model calls'),
    });
    expect(provider.callCount).toBe(3);
    const roles = (await t.sessions.load('s1')).map((stored) => stored.message.role);
    expect(roles).toEqual(['user', 'assistant', 'tool', 'assistant', 'tool', 'assistant', 'tool']);
    expect(() => buildRunner({ provider, runner: { maxIterations: 0 } })).toThrow(/maxIterations/);
  });

  it('answers a malformed tool call with an error result', async () => {
    const provider = new ScriptedProvider({
      steps: [
        {
          reply: {
            toolCalls: [
              { id: 'm1', name: 'echo', rawArguments: '{"text": "unterminated' },
              { id: 'ok1', name: 'echo', arguments: { text: 'fine' } },
            ],
          },
        },
        {
          expect: {
            toolResults: [
              { callId: 'm1', contains: 'SCHEMA_VIOLATION' },
              { callId: 'ok1', contains: 'fine' },
            ],
          },
          reply: { text: 'Retried nothing.' },
        },
      ],
    });
    const t = buildRunner({ provider });
    const result = await t.runner.run({ sessionId: 's1', message: 'x', onEvent: t.onEvent });
    expect(result.reason).toBe('final_answer');
    expect(t.caller.calls).toHaveLength(1);
    const log = await t.sessions.load('s1');
    expect(log[1]!.message).toMatchObject({
      role: 'assistant',
      toolCalls: [{ id: 'm1', arguments: {} }, { id: 'ok1' }],
    });
  });

  it('reports unknown tools and failing tools to the model with their code', async () => {
    const provider = new ScriptedProvider({
      steps: [
        {
          reply: {
            toolCalls: [
              { id: 'u1', name: 'ghost', arguments: {} },
              { id: 'f1', name: 'fail', arguments: {} },
            ],
          },
        },
        {
          expect: {
            toolResults: [
              { callId: 'u1', contains: 'UNKNOWN_TOOL' },
              { callId: 'f1', contains: 'TOOL_FAILED' },
            ],
          },
          reply: { text: 'Both failed.' },
        },
      ],
    });
    const t = buildRunner({ provider, tools: new MutableToolSource([toolDef('fail')]) });
    const result = await t.runner.run({ sessionId: 's1', message: 'x', onEvent: t.onEvent });
    expect(result.content).toBe('Both failed.');
    const finished = t.events.filter(
      (event): event is ToolCallFinishedEvent => event.type === 'tool_call_finished',
    );
    expect(finished.map((event) => [event.tool, event.ok, event.code])).toEqual([
      ['ghost', false, 'UNKNOWN_TOOL'],
      ['fail', false, 'TOOL_FAILED'],
    ]);
  });

  it('denies what would ask in an autonomous run, without asking', async () => {
    const provider = new ScriptedProvider({
      steps: [
        { reply: { toolCalls: [{ id: 'w1', name: 'write_file', arguments: {} }] } },
        {
          expect: { toolResults: [{ callId: 'w1', contains: 'autonomous run' }] },
          reply: { text: 'Skipped.' },
        },
      ],
    });
    const t = buildRunner({
      provider,
      tools: new MutableToolSource([toolDef('write_file', ['write_filesystem'])]),
    });
    const result = await t.runner.run({
      sessionId: 'job-1',
      message: 'nightly',
      autonomous: true,
      actor: 'job:1',
      onEvent: t.onEvent,
    });
    expect(result.content).toBe('Skipped.');
    expect(await t.approvals.listPending()).toHaveLength(0);
  });

  it('aborts while the model streams: aborted reason, ABORTED error, nothing dangling', async () => {
    const provider = new ScriptedProvider({ steps: [{ reply: { text: 'a b c d e f', delayMs: 30 } }] });
    const t = buildRunner({ provider });
    const controller = new AbortController();
    const result = await t.runner.run({
      sessionId: 's1',
      message: 'x',
      signal: controller.signal,
      onEvent: (event) => {
        t.onEvent(event);
        if (event.type === 'text_delta') controller.abort(new Error('user pressed stop'));
      },
    });
    expect(result).toMatchObject({ reason: 'aborted', error: { code: 'ABORTED' } });
    expect(typesOf(t.events).slice(-3)).toEqual(['error', 'usage', 'turn_finished']);
    expect((await t.sessions.load('s1')).map((stored) => stored.message.role)).toEqual(['user']);
  });

  it('aborts while waiting for an approval: the pending call gets a closing result', async () => {
    const provider = new ScriptedProvider({
      steps: [{ reply: { toolCalls: [{ id: 'w1', name: 'write_file', arguments: {} }] } }],
    });
    const t = buildRunner({
      provider,
      tools: new MutableToolSource([toolDef('write_file', ['write_filesystem'])]),
    });
    const controller = new AbortController();
    const result = await t.runner.run({
      sessionId: 's1',
      message: 'x',
      signal: controller.signal,
      onEvent: (event) => event.type === 'approval_requested' && controller.abort(),
    });
    expect(result.reason).toBe('aborted');
    const log = await t.sessions.load('s1');
    expect(log.at(-1)!.message).toMatchObject({
      role: 'tool',
      toolCallId: 'w1',
      isError: true,
      content: expect.stringContaining('ABORTED'),
    });
    expect(t.approvals.waiting).toBe(0);
  });

  it('reports a model failure as an error turn', async () => {
    const provider = new ScriptedProvider({
      steps: [{ expect: { lastUserMessageContains: 'something else' }, reply: { text: 'x' } }],
    });
    const t = buildRunner({ provider });
    const result = await t.runner.run({ sessionId: 's1', message: 'hello', onEvent: t.onEvent });
    expect(result.reason).toBe('error');
    expect(result.error!.code).toBeDefined();
    expect(t.events.find((event) => event.type === 'error')).toMatchObject({
      message: expect.stringContaining('step'),
    });
  });

  it('runs a direct /call through the same policy path', async () => {
    const provider = new ScriptedProvider({ steps: [{ reply: { text: 'unused' } }] });
    const tools = new MutableToolSource([toolDef('echo'), toolDef('write_file', ['write_filesystem'])]);
    const t = buildRunner({ provider, tools });
    const echoed = await t.runner.callTool({ sessionId: 's1', tool: 'echo', params: { text: 'hi' } });
    expect(echoed).toMatchObject({ ok: true, content: expect.stringContaining('hi') });
    expect(t.caller.calls[0]!.call.actor).toBe('operator');
    const denied = await t.runner.callTool({
      sessionId: 's1',
      tool: 'write_file',
      params: {},
      autonomous: true,
    });
    expect(denied).toMatchObject({ ok: false, code: 'POLICY_DENIED' });
    const asked = await t.runner.callTool({
      sessionId: 's1',
      tool: 'write_file',
      params: {},
      onEvent: (event) =>
        event.type === 'approval_requested' &&
        void t.approvals.resolve(event.approvalId, 'approve', 'person:ana'),
    });
    expect(asked.ok).toBe(true);
    expect(await t.sessions.load('s1')).toHaveLength(0);
  });

  it('refuses a second message while a turn of the session is running, and mentions /skill skills to the selector only', async () => {
    const provider = new ScriptedProvider({
      steps: [
        { reply: { toolCalls: [{ id: 'w1', name: 'write_file', arguments: {} }] } },
        { reply: { text: 'ok' } },
        { reply: { text: 'other session' } },
      ],
    });
    const skills = new FixedSkillAdvisor([activeSkill('ward-round')]);
    const t = buildRunner({
      provider,
      skills,
      tools: new MutableToolSource([toolDef('write_file', ['write_filesystem'])]),
    });
    let approvalId = '';
    const first = t.runner.run({
      sessionId: 's1',
      message: 'summarise beds',
      mentionSkills: ['ward-round'],
      onEvent: (event) => event.type === 'approval_requested' && (approvalId = event.approvalId),
    });
    while (approvalId === '') await new Promise((resolve) => setTimeout(resolve, 1));
    expect(t.runner.isBusy('s1')).toBe(true);
    await expect(t.runner.run({ sessionId: 's1', message: 'hello?' })).rejects.toMatchObject({
      name: 'SessionBusyError',
      code: 'NAME_CONFLICT',
    });
    await t.approvals.resolve(approvalId, 'approve', 'person:ana');
    expect((await first).content).toBe('ok');
    expect(t.runner.isBusy('s1')).toBe(false);
    expect((await t.runner.run({ sessionId: 's2', message: 'x' })).content).toBe('other session');
    expect(skills.selectedFor[0]).toBe('$ward-round summarise beds');
    expect((await t.sessions.load('s1'))[0]!.message).toEqual({ role: 'user', content: 'summarise beds' });
  });

  it('degrades to no skills when selection fails, but fails the turn when attenuation fails', async () => {
    const down = new TalonError(ERROR_CODES.NO_RESPONDERS, 'skill-service is down');
    const broken: SkillAdvisor = {
      select: async () => Promise.reject(down),
      attenuate: async () => Promise.reject(down),
    };
    const t = buildRunner({
      provider: new ScriptedProvider({ steps: [{ reply: { text: 'Fine without skills.' } }] }),
      skills: broken,
    });
    const result = await t.runner.run({ sessionId: 's1', message: 'x', onEvent: t.onEvent });
    expect(result.content).toBe('Fine without skills.');
    expect(t.events.find((event) => event.type === 'error')).toMatchObject({
      code: 'NO_RESPONDERS',
      fatal: false,
    });
    expect(t.events.find((event) => event.type === 'skills_selected')).toMatchObject({
      skills: [],
      removedTools: [],
    });

    const half = new FixedSkillAdvisor([activeSkill('notes', 'INSTALLED')]);
    half.attenuate = async () => Promise.reject(down);
    const u = buildRunner({
      provider: new ScriptedProvider({ steps: [{ reply: { text: 'never' } }] }),
      skills: half,
    });
    const failed = await u.runner.run({ sessionId: 's1', message: 'x', onEvent: u.onEvent });
    expect(failed).toMatchObject({ reason: 'error', error: { code: 'NO_RESPONDERS' } });
    expect(u.events.find((event) => event.type === 'error')).toMatchObject({ fatal: true });
  });

  it('attenuates once per model call and announces the skills once', async () => {
    const provider = new ScriptedProvider({
      steps: [{ reply: { toolCalls: [{ name: 'echo', arguments: {} }] } }, { reply: { text: 'ok' } }],
    });
    const skills = new FixedSkillAdvisor([activeSkill('notes')]);
    const t = buildRunner({ provider, skills });
    await t.runner.run({ sessionId: 's1', message: 'x', onEvent: t.onEvent });
    expect(skills.attenuateCalls).toBe(2);
    expect(typesOf(t.events).filter((type) => type === 'skills_selected')).toHaveLength(1);
  });
});
