import { describe, expect, it } from '@jest/globals';
import { ERROR_CODES, type ActiveSkill } from '@talon/contracts';
import { TalonError } from '@talon/errors';
import { ScriptedProvider } from '@talon/llm';
import {
  activeSkill,
  buildRunner,
  FixedSkillAdvisor,
  MutableToolSource,
  toolDef,
} from '../test/support/agent-fixtures.js';
import { executeSkillToolDefinition } from './execute-skill-tool.js';
import { skillPreApprovals } from './skill-pre-approvals.js';
import type { AgentEvent } from './agent-events.js';

/** Skills with fixed selections that can also be activated by name for execute_skill. */
class TaskSkillAdvisor extends FixedSkillAdvisor {
  readonly activated: Array<{ name: string; parameters: Readonly<Record<string, unknown>> }> = [];
  constructor(
    active: ActiveSkill[],
    private readonly byName: Record<string, ActiveSkill>,
  ) {
    super(active);
  }
  async activate(name: string, parameters: Readonly<Record<string, unknown>>): Promise<ActiveSkill> {
    this.activated.push({ name, parameters });
    const skill = this.byName[name];
    if (!skill) throw new TalonError(ERROR_CODES.NOT_FOUND, `No skill named "${name}".`);
    return { ...skill, injection: `<skill name="${name}">${JSON.stringify(parameters)}</skill>` };
  }
}

const withTools = (skill: ActiveSkill, tools: string[], preApproved: string[] = []): ActiveSkill => ({
  ...skill,
  tools: tools.map((name) => ({ name, optional: false })),
  preApprovedTools: preApproved,
});

const catalog = () =>
  new MutableToolSource([
    toolDef('echo'),
    toolDef('write_file', ['write_filesystem'], 'unless_auto_approved'),
    toolDef('tool_install', ['modify_extension'], 'always'),
    executeSkillToolDefinition(),
  ]);

describe('allowed-tools pre-approval', () => {
  it('lets a Trusted skill pre-approve write_file and records the decision and the source', async () => {
    const provider = new ScriptedProvider({
      steps: [
        { reply: { toolCalls: [{ id: 'w1', name: 'write_file', arguments: { text: 'x' } }] } },
        { expect: { toolResults: [{ callId: 'w1', contains: 'x' }] }, reply: { text: 'written' } },
      ],
    });
    const skills = new TaskSkillAdvisor(
      [withTools(activeSkill('notes'), [], ['write_file', 'tool_install', 'nope'])],
      {},
    );
    const t = buildRunner({ provider, tools: catalog(), skills });
    // Autonomous: anything that would ask is denied, so only the pre-approval can let write_file run.
    const result = await t.runner.run({
      sessionId: 's',
      message: 'note',
      autonomous: true,
      onEvent: t.onEvent,
    });
    expect(result.content).toBe('written');
    const decisions = t.events.find((event) => event.type === 'skill_pre_approvals');
    expect(decisions).toMatchObject({
      decisions: [
        { skill: 'notes', tool: 'write_file', granted: true },
        {
          skill: 'notes',
          tool: 'tool_install',
          granted: false,
          reason: 'the tool requires approval for every call',
        },
        { skill: 'notes', tool: 'nope', granted: false },
      ],
    });
    expect(t.events.find((event) => event.type === 'tool_call_finished')).toMatchObject({
      ok: true,
      policy: { action: 'allow', source: 'skill_pre_approval', preApprovedBy: 'notes' },
    });
  });

  it('grants nothing to an Installed skill', async () => {
    const provider = new ScriptedProvider({
      steps: [
        { reply: { toolCalls: [{ id: 'w1', name: 'write_file', arguments: { text: 'x' } }] } },
        { reply: { text: 'refused' } },
      ],
    });
    const skills = new TaskSkillAdvisor(
      [withTools(activeSkill('tips', 'INSTALLED'), [], ['write_file'])],
      {},
    );
    const t = buildRunner({ provider, tools: catalog(), skills });
    await t.runner.run({ sessionId: 's', message: 'tip', autonomous: true, onEvent: t.onEvent });
    expect(t.events.find((event) => event.type === 'skill_pre_approvals')).toMatchObject({
      decisions: [
        {
          skill: 'tips',
          tool: 'write_file',
          granted: false,
          reason: 'an installed skill cannot pre-approve tools',
        },
      ],
    });
    expect(t.events.find((event) => event.type === 'tool_call_finished')).toMatchObject({
      ok: false,
      code: 'POLICY_DENIED',
      policy: { action: 'deny', source: 'autonomous' },
    });
    expect(t.caller.calls).toHaveLength(0);
  });
});

describe('skillPreApprovals', () => {
  it('refuses tools that change Talon itself, whatever their approval', () => {
    const tools = [
      toolDef('skill_remove', ['modify_extension'], 'unless_auto_approved'),
      toolDef('grant_budget', ['modify_budget']),
      toolDef('pay', ['financial']),
      toolDef('echo'),
    ];
    const { byTool, decisions } = skillPreApprovals(
      [withTools(activeSkill('greedy'), [], ['skill_remove', 'grant_budget', 'pay', 'echo'])],
      tools,
    );
    expect([...byTool]).toEqual([['echo', 'greedy']]);
    expect(decisions.filter((decision) => !decision.granted).map((decision) => decision.reason)).toEqual([
      'the tool changes Talon itself or spends money, which no skill may pre-approve',
      'the tool changes Talon itself or spends money, which no skill may pre-approve',
      'the tool changes Talon itself or spends money, which no skill may pre-approve',
    ]);
  });

  it('never reaches past the ceiling: a tool attenuated away is refused', () => {
    const { decisions } = skillPreApprovals(
      [withTools(activeSkill('t'), [], ['write_file'])],
      [toolDef('echo')],
    );
    expect(decisions).toEqual([
      {
        skill: 't',
        tool: 'write_file',
        granted: false,
        reason: 'the tool is not offered this turn (unknown or outside the ceiling)',
      },
    ]);
  });
});

describe('execute_skill', () => {
  const summarize = withTools(activeSkill('summarize'), ['echo']);
  const looping = withTools(activeSkill('looping'), ['echo', 'execute_skill']);

  it('runs a skill as a nested turn with its declared tools and returns its answer', async () => {
    const provider = new ScriptedProvider({
      steps: [
        {
          name: 'parent calls execute_skill',
          reply: {
            toolCalls: [
              {
                id: 'x1',
                name: 'execute_skill',
                arguments: { skill: 'summarize', parameters: { days: 3 }, task: 'sum up' },
              },
            ],
          },
        },
        {
          name: 'nested turn',
          expect: {
            systemContains: '{"days":3}',
            lastUserMessageContains: 'sum up',
            toolsInclude: ['echo'],
            toolsExclude: ['write_file', 'execute_skill', 'tool_install'],
          },
          reply: { toolCalls: [{ id: 'e1', name: 'echo', arguments: { text: 'inner' } }] },
        },
        {
          name: 'nested answer',
          expect: { toolResults: [{ callId: 'e1', contains: 'inner' }] },
          reply: { text: 'summary: 3 days' },
        },
        {
          name: 'parent answer',
          expect: { toolResults: [{ callId: 'x1', contains: 'summary: 3 days' }] },
          reply: { text: 'done' },
        },
      ],
    });
    const skills = new TaskSkillAdvisor([], { summarize });
    const t = buildRunner({ provider, tools: catalog(), skills });
    const result = await t.runner.run({ sessionId: 's', message: 'go', onEvent: t.onEvent });
    expect(result).toMatchObject({ reason: 'final_answer', content: 'done' });
    // The sub-task's tokens count towards the calling turn.
    const nestedUsage = t.events.find(
      (event) => event.type === 'usage' && event.scope === 'turn' && event.subtask !== undefined,
    );
    expect(nestedUsage).toBeDefined();
    expect(result.usage.outputTokens).toBeGreaterThan(
      (nestedUsage as { usage: { outputTokens: number } }).usage.outputTokens,
    );
    expect(skills.activated).toEqual([{ name: 'summarize', parameters: { days: 3 } }]);
    const nested = t.events.filter(
      (event) => (event as AgentEvent & { subtask?: unknown }).subtask !== undefined,
    );
    expect(nested.map((event) => event.type)).toEqual(
      expect.arrayContaining([
        'turn_started',
        'skills_selected',
        'tool_call_started',
        'tool_call_finished',
        'turn_finished',
      ]),
    );
    expect(nested[0]).toMatchObject({ subtask: { skill: 'summarize', callId: 'x1', depth: 1 } });
    // Only the parent's messages are persisted; the sub-task's stay out of the session.
    const stored = await t.sessions.load('s');
    expect(stored.map((entry) => entry.message.role)).toEqual(['user', 'assistant', 'tool', 'assistant']);
  });

  it('refuses a skill executing itself and bounds the depth of a chain', async () => {
    const provider = new ScriptedProvider({
      steps: [
        { reply: { toolCalls: [{ id: 'x1', name: 'execute_skill', arguments: { skill: 'looping' } }] } },
        {
          expect: { toolsInclude: ['execute_skill'] },
          reply: { toolCalls: [{ id: 'x2', name: 'execute_skill', arguments: { skill: 'looping' } }] },
        },
        {
          expect: { toolResults: [{ callId: 'x2', contains: 'SKILL_RECURSION_LIMIT' }] },
          reply: { text: 'stopped' },
        },
        { expect: { toolResults: [{ callId: 'x1', contains: 'stopped' }] }, reply: { text: 'ok' } },
      ],
    });
    const t = buildRunner({ provider, tools: catalog(), skills: new TaskSkillAdvisor([], { looping }) });
    expect((await t.runner.run({ sessionId: 's', message: 'go', onEvent: t.onEvent })).content).toBe('ok');
    expect(
      t.events.find((event) => event.type === 'tool_call_finished' && event.callId === 'x2'),
    ).toMatchObject({
      ok: false,
      code: 'SKILL_RECURSION_LIMIT',
    });

    const deep = new ScriptedProvider({
      steps: [
        { reply: { toolCalls: [{ id: 'x1', name: 'execute_skill', arguments: { skill: 'looping' } }] } },
        { reply: { toolCalls: [{ id: 'x2', name: 'execute_skill', arguments: { skill: 'summarize' } }] } },
        {
          expect: { toolResults: [{ callId: 'x2', contains: 'nest 2 sub-tasks deep' }] },
          reply: { text: 'flat' },
        },
        { reply: { text: 'ok' } },
      ],
    });
    const d = buildRunner({
      provider: deep,
      tools: catalog(),
      skills: new TaskSkillAdvisor([], { looping, summarize }),
      runner: { skillTasks: { maxDepth: 1 } },
    });
    expect((await d.runner.run({ sessionId: 's', message: 'go' })).content).toBe('ok');
  });

  it('refuses a cycle through other skills (a → b → a)', async () => {
    const a = withTools(activeSkill('a'), ['execute_skill']);
    const b = withTools(activeSkill('b'), ['execute_skill']);
    const provider = new ScriptedProvider({
      steps: [
        { reply: { toolCalls: [{ id: 'x1', name: 'execute_skill', arguments: { skill: 'a' } }] } },
        { reply: { toolCalls: [{ id: 'x2', name: 'execute_skill', arguments: { skill: 'b' } }] } },
        { reply: { toolCalls: [{ id: 'x3', name: 'execute_skill', arguments: { skill: 'a' } }] } },
        {
          expect: { toolResults: [{ callId: 'x3', contains: 'already running in this chain (a → b → a)' }] },
          reply: { text: 'b stops' },
        },
        { expect: { toolResults: [{ callId: 'x2', contains: 'b stops' }] }, reply: { text: 'a stops' } },
        { expect: { toolResults: [{ callId: 'x1', contains: 'a stops' }] }, reply: { text: 'ok' } },
      ],
    });
    const t = buildRunner({ provider, tools: catalog(), skills: new TaskSkillAdvisor([], { a, b }) });
    expect((await t.runner.run({ sessionId: 's', message: 'go' })).content).toBe('ok');
  });

  it('refuses malformed arguments with SCHEMA_VIOLATION', async () => {
    const provider = new ScriptedProvider({
      steps: [
        {
          reply: {
            toolCalls: [
              { id: 'x1', name: 'execute_skill', arguments: { skill: 'summarize', parameters: [1] } },
              { id: 'x2', name: 'execute_skill', arguments: { skill: 42 } },
              { id: 'x3', name: 'execute_skill', arguments: { skill: 'summarize', extra: true } },
            ],
          },
        },
        {
          expect: {
            toolResults: [
              { callId: 'x1', contains: '"parameters" to be an object' },
              { callId: 'x2', contains: 'needs "skill"' },
              { callId: 'x3', contains: 'got extra' },
            ],
          },
          reply: { text: 'fixed' },
        },
      ],
    });
    const skills = new TaskSkillAdvisor([], { summarize });
    const t = buildRunner({ provider, tools: catalog(), skills });
    expect((await t.runner.run({ sessionId: 's', message: 'go' })).content).toBe('fixed');
    expect(skills.activated).toEqual([]);
  });

  it('answers an unknown skill with its typed error, and stops a sub-task at its model-call limit', async () => {
    const provider = new ScriptedProvider({
      steps: [
        { reply: { toolCalls: [{ id: 'x1', name: 'execute_skill', arguments: { skill: 'missing' } }] } },
        {
          expect: { toolResults: [{ callId: 'x1', contains: 'NOT_FOUND' }] },
          reply: { toolCalls: [{ id: 'x2', name: 'execute_skill', arguments: { skill: 'summarize' } }] },
        },
        { reply: { toolCalls: [{ id: 'e1', name: 'echo', arguments: { text: 'again' } }] } },
        { reply: { toolCalls: [{ id: 'e2', name: 'echo', arguments: { text: 'again' } }] } },
        {
          expect: { toolResults: [{ callId: 'x2', contains: 'SKILL_TASK_LIMIT' }] },
          reply: { text: 'gave up' },
        },
      ],
    });
    const t = buildRunner({
      provider,
      tools: catalog(),
      skills: new TaskSkillAdvisor([], { summarize }),
      runner: { skillTasks: { maxIterations: 2 } },
    });
    expect((await t.runner.run({ sessionId: 's', message: 'go' })).content).toBe('gave up');
  });
});
