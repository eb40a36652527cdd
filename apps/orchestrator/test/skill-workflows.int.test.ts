import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { mkdir, mkdtemp, readdir, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Subscription } from '@nats-io/transport-node';
import { signWebhook } from '@talon/autonomy';
import type {
  ChatEvent,
  ChatSendReply,
  Job,
  Routine,
  RoutineFire,
  HandRun,
  SelectResult,
  ToolsListReply,
} from '@talon/contracts';
import { parseSkillText } from '@talon/skills';
import { REPO_ROOT, waitUntil, type TalonApiClient } from '@talon/testing';
import { startTalonStack, type TalonStack } from './support/talon-stack.js';

/**
 * Workflow skills through the real stack: skill-service, wasm-runner and an orchestrator whose model is the
 * scripted provider. One script serves the whole file, so the tests run in order and each consumes its steps.
 */

const PR_REVIEW = `---
name: pr-review
description: Reviews a pull request and writes the review notes to a file in the workspace.
tools: [read_file, write_file]
allowed-tools: write_file
parameters:
  - name: pr_url
    type: string
    description: The pull request to review
    required: true
  - name: focus_areas
    type: array
    default: [correctness, security]
triggers:
  - command: /review-pr
  - webhook: pull_request
---
Review {{ pr_url }}. Focus: {{ focus_areas | join(", ") }}.
Write the notes to review.md.
`;

const NEEDS_GIT = `---
name: needs-git
description: Shows what changed in the repository with a git diff tool.
tools: [git_diff, read_file]
activation:
  keywords: [changed in git]
---
Call git_diff and summarise it.
`;

const SELF_RUNNER = `---
name: self-runner
description: Delegates its work to itself, to show that recursion is bounded.
tools: [execute_skill]
---
Run yourself with execute_skill.
`;

const WALLET_NOTES = `---
name: wallet-notes
description: Suggestions about wallets, installed from outside.
allowed-tools: write_file
activation:
  keywords: [wallet]
---
Write wallet notes to a file.
`;

const SCRIPT = {
  steps: [
    {
      name: 'command: parameters rendered, write_file pre-approved',
      expect: {
        systemContains: 'Review https://git.example/pr/9. Focus: security, tests.',
        toolsInclude: ['write_file', 'read_file', 'execute_skill'],
      },
      reply: {
        toolCalls: [{ id: 'w1', name: 'write_file', arguments: { path: 'review.md', content: 'LGTM' } }],
      },
    },
    { expect: { toolResults: [{ callId: 'w1', contains: '' }] }, reply: { text: 'Review written.' } },
    {
      name: 'installed skill: no pre-approval, read-only ceiling',
      expect: { toolsExclude: ['write_file'] },
      reply: {
        toolCalls: [{ id: 'w2', name: 'write_file', arguments: { path: 'wallet.md', content: 'x' } }],
      },
    },
    {
      expect: { toolResults: [{ callId: 'w2', contains: 'POLICY_DENIED' }] },
      reply: { text: 'Not allowed.' },
    },
    { name: 'gated skill', reply: { text: 'No git here.' } },
    {
      name: 'parent runs pr-review as a sub-task (and once without its required parameter)',
      reply: {
        toolCalls: [
          { id: 'x0', name: 'execute_skill', arguments: { skill: 'pr-review' } },
          {
            id: 'x1',
            name: 'execute_skill',
            arguments: {
              skill: 'pr-review',
              parameters: { pr_url: 'https://git.example/pr/10' },
              task: 'Write short notes.',
            },
          },
        ],
      },
    },
    {
      name: 'nested pr-review turn',
      expect: {
        systemContains: 'Review https://git.example/pr/10. Focus: correctness, security.',
        lastUserMessageContains: 'Write short notes.',
        toolsInclude: ['read_file', 'write_file'],
        toolsExclude: ['shell', 'execute_skill', 'echo'],
      },
      reply: { text: 'Notes: fine.' },
    },
    {
      expect: {
        toolResults: [
          { callId: 'x0', contains: 'SCHEMA_VIOLATION' },
          { callId: 'x0', contains: 'pr_url is required' },
          { callId: 'x1', contains: 'Notes: fine.' },
        ],
      },
      reply: { toolCalls: [{ id: 'x2', name: 'execute_skill', arguments: { skill: 'needs-git' } }] },
    },
    {
      expect: { toolResults: [{ callId: 'x2', contains: 'SKILL_GATED_OUT' }] },
      reply: { toolCalls: [{ id: 'x3', name: 'execute_skill', arguments: { skill: 'self-runner' } }] },
    },
    {
      name: 'nested self-runner tries to run itself',
      expect: { toolsInclude: ['execute_skill'] },
      reply: { toolCalls: [{ id: 'x4', name: 'execute_skill', arguments: { skill: 'self-runner' } }] },
    },
    {
      expect: { toolResults: [{ callId: 'x4', contains: 'SKILL_RECURSION_LIMIT' }] },
      reply: { text: 'Cannot recurse.' },
    },
    {
      expect: { toolResults: [{ callId: 'x3', contains: 'Cannot recurse.' }] },
      reply: { text: 'All done.' },
    },
    {
      name: "webhook trigger: the body's declared keys fill the parameters",
      expect: { systemContains: 'Review https://git.example/pr/11. Focus: docs, naming.' },
      reply: { text: 'Reviewed from the hook.' },
    },
    {
      name: "a hand's settings fill the parameters of the skill it names",
      expect: {
        systemContains: 'Review https://git.example/pr/12. Focus: api, docs.',
        toolsInclude: ['read_file'],
      },
      reply: { text: 'Reviewed by the hand.' },
    },
  ],
};

describe('workflow skills through the orchestrator (scripted model)', () => {
  let stack: TalonStack;
  let api: TalonApiClient;
  let workspaceDir: string;
  let httpPort: number;

  beforeAll(async () => {
    const stateDir = await mkdtemp(join(tmpdir(), 'talon-skill-workflows-'));
    workspaceDir = join(stateDir, 'workspace');
    await mkdir(workspaceDir, { recursive: true });
    const skills: Array<[string, string, string]> = [
      ['skills', 'pr-review', PR_REVIEW],
      ['skills', 'needs-git', NEEDS_GIT],
      ['skills', 'self-runner', SELF_RUNNER],
      ['installed', 'wallet-notes', WALLET_NOTES],
    ];
    for (const [dir, name, text] of skills) {
      await mkdir(join(stateDir, dir, name), { recursive: true });
      await writeFile(join(stateDir, dir, name, 'SKILL.md'), text);
    }
    // A hand (flat dialect) that names pr-review: its settings share the skill's parameter names.
    await mkdir(join(stateDir, 'hands'));
    await writeFile(
      join(stateDir, 'hands', 'reviewer.HAND.toml'),
      [
        'id = "reviewer"',
        'description = "Reviews the pull request its settings name."',
        'tools = ["read_file", "write_file"]',
        'skills = ["pr-review", "absent-skill"]',
        '[[settings]]',
        'key = "pr_url"',
        'setting_type = "text"',
        'default = "https://git.example/pr/1"',
        '[[settings]]',
        'key = "focus_areas"',
        'setting_type = "text"',
        'default = "correctness"',
        '[agent]',
        'system_prompt = "Review pull requests."',
      ].join('\n'),
    );
    stack = await startTalonStack({
      name: 'talon-skill-workflows-',
      stateDir,
      model: { script: SCRIPT },
      workers: {
        'skill-service': {
          SKILLS_DIR: join(stateDir, 'user-skills'),
          SKILLS_INSTALLED_DIR: join(stateDir, 'installed'),
        },
        'wasm-runner': { TALON_WORKSPACE_DIR: workspaceDir },
        'tool-worker': {},
      },
      orchestratorEnv: {
        TALON_SKILL_ROUTINES_SYNC_MS: '500',
        TALON_HANDS_DIR: join(stateDir, 'hands'),
        TALON_SCHEDULER_TICK_MS: '250',
      },
    });
    ({ api } = stack);
    httpPort = stack.orchestrators[0]!.httpPort;
    await waitUntil(
      async () => {
        const listing = await api.ok<ToolsListReply>('tools.list', {});
        const names = new Set(listing.tools.map((tool) => tool.definition.name));
        return names.has('write_file') && names.has('json');
      },
      30_000,
      'write_file and json in the catalog',
    );
  }, 120_000);

  afterAll(() => stack?.close());

  function record(sessionId: string): { events: ChatEvent[]; subscription: Subscription } {
    const events: ChatEvent[] = [];
    const subscription = api.connection.subscribe(`talon.events.v1.session.${sessionId}`, {
      callback: (_error, message) => void events.push(message.json<ChatEvent>()),
    });
    return { events, subscription };
  }

  async function auditRows(kind: string): Promise<Array<Record<string, unknown>>> {
    // Waits for the audit outbox to be written into the table.
    await api.ok('audit.list', { limit: 1 });
    const pg = await import('pg');
    const db = new pg.default.Client({ connectionString: stack.database.url });
    await db.connect();
    try {
      const { rows } = await db.query(
        'SELECT kind, actor, tool, outcome, data::jsonb AS data FROM audit_event WHERE kind = $1 ORDER BY chain_seq',
        [kind],
      );
      return rows as Array<Record<string, unknown>>;
    } finally {
      await db.end();
    }
  }

  const newSession = async () => (await api.ok<{ id: string }>('sessions.create', { title: 'skills' })).id;
  const send = (sessionId: string, message: string) =>
    api.ok<ChatSendReply>('chat.send', { sessionId, message }, 60_000);

  it('the bundled skills declare only tools that exist in the live catalog', async () => {
    const listing = await api.ok<ToolsListReply>('tools.list', {});
    const names = new Set(listing.tools.map((tool) => tool.definition.name));
    const folder = join(REPO_ROOT, 'skills');
    for (const name of await readdir(folder)) {
      const text = await readFile(join(folder, name, 'SKILL.md'), 'utf8');
      const parsed = parseSkillText(text, { path: join(folder, name, 'SKILL.md') });
      if (!parsed.ok) throw new Error(`${name}: ${parsed.rejection.message}`);
      for (const tool of [
        ...parsed.skill.declaredTools.map((entry) => entry.name),
        ...parsed.skill.preApprovedTools,
      ])
        expect({ skill: name, tool, exists: names.has(tool) }).toEqual({ skill: name, tool, exists: true });
    }
  });

  it('skill_list shows the model what execute_skill takes; execute_skill cannot be called directly', async () => {
    const listed = await api.ok<{ output: { skills: Array<Record<string, unknown>> } }>('tools.call', {
      tool: 'skill_list',
      params: {},
    });
    expect(listed.output.skills.find((skill) => skill.name === 'pr-review')).toMatchObject({
      parameters: [
        { name: 'pr_url', type: 'string', required: true, description: 'The pull request to review' },
        { name: 'focus_areas', type: 'array', required: false },
      ],
      tools: ['read_file', 'write_file'],
    });
    const direct = await api.call('tools.call', { tool: 'execute_skill', params: { skill: 'pr-review' } });
    expect(direct).toMatchObject({ ok: false, error: { code: 'POLICY_DENIED' } });
  });

  it('a command message fills typed parameters and allowed-tools pre-approves write_file for a Trusted skill', async () => {
    const sessionId = await newSession();
    const recorder = record(sessionId);
    const reply = await send(
      sessionId,
      '/review-pr pr_url=https://git.example/pr/9 focus_areas=security,tests',
    );
    expect(reply).toMatchObject({ reason: 'final_answer', content: 'Review written.' });
    expect(await readFile(join(workspaceDir, 'review.md'), 'utf8')).toBe('LGTM');
    await waitUntil(
      () => recorder.events.some((event) => event.type === 'turn_finished'),
      10_000,
      'turn end',
    );
    expect(recorder.events.some((event) => event.type === 'approval_requested')).toBe(false);
    expect(recorder.events.find((event) => event.type === 'tool_call_finished')).toMatchObject({
      ok: true,
      policy: { action: 'allow', source: 'skill_pre_approval', preApprovedBy: 'pr-review' },
    });
    await recorder.subscription.unsubscribe();
    await waitUntil(async () => (await auditRows('policy.decision')).length > 0, 10_000, 'audit rows');
    expect(await auditRows('skill.pre_approval')).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ actor: 'skill:pr-review', tool: 'write_file', outcome: 'granted' }),
      ]),
    );
    expect(await auditRows('policy.decision')).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ actor: 'skill:pr-review', tool: 'write_file', outcome: 'pre_approved' }),
      ]),
    );
  });

  it('an Installed skill pre-approves nothing, and the refusal is audited', async () => {
    const sessionId = await newSession();
    const reply = await send(sessionId, 'write my wallet notes please');
    expect(reply).toMatchObject({ reason: 'final_answer', content: 'Not allowed.' });
    await waitUntil(
      async () => (await auditRows('skill.pre_approval')).some((row) => row.actor === 'skill:wallet-notes'),
      10_000,
      'refusal audited',
    );
    expect(await auditRows('skill.pre_approval')).toEqual(
      expect.arrayContaining([
        expect.objectContaining({
          actor: 'skill:wallet-notes',
          tool: 'write_file',
          outcome: 'refused',
          data: expect.objectContaining({ reason: 'an installed skill cannot pre-approve tools' }),
        }),
      ]),
    );
    await expect(readFile(join(workspaceDir, 'wallet.md'), 'utf8')).rejects.toThrow();
  });

  it('a command missing a required parameter asks for it instead of running a turn', async () => {
    const sessionId = await newSession();
    const reply = await send(sessionId, '/review-pr focus_areas=docs');
    expect(reply.reason).toBe('needs_input');
    expect(reply.content).toContain('pr_url (string: The pull request to review)');
    expect(reply.content).toContain('/review-pr pr_url=…');
    const viaSkill = await send(sessionId, '/skill pr-review focus_areas=docs please');
    expect(viaSkill).toMatchObject({ reason: 'needs_input', content: expect.stringContaining('pr_url') });
    const wrong = await api.call('chat.send', { sessionId, message: '/review-pr pr_url=x focus=1' });
    expect(wrong).toMatchObject({ ok: false, error: { code: 'SCHEMA_VIOLATION' } });
  });

  it('a skill whose declared tool is missing is gated out with the reason', async () => {
    const sessionId = await newSession();
    const recorder = record(sessionId);
    expect(await send(sessionId, 'what changed in git today?')).toMatchObject({ content: 'No git here.' });
    await waitUntil(
      () => recorder.events.some((event) => event.type === 'skills_selected'),
      10_000,
      'skills',
    );
    const selected = recorder.events.find((event) => event.type === 'skills_selected')!;
    expect(selected['skills']).not.toEqual(
      expect.arrayContaining([expect.objectContaining({ name: 'needs-git' })]),
    );
    expect(selected['gatedOut']).toEqual([
      {
        name: 'needs-git',
        reasons: expect.arrayContaining(['required tool "git_diff" is not available and not installable']),
      },
    ]);
    await recorder.subscription.unsubscribe();
    const selection = await api.ok<SelectResult>('skills.select', { message: 'what changed in git today?' });
    expect(selection.considered.find((entry) => entry.name === 'needs-git')).toMatchObject({
      outcome: 'gated_out',
      reasons: expect.arrayContaining(['required tool "git_diff" is not available and not installable']),
    });
  });

  it('execute_skill runs a skill as a nested turn; gated-out skills and recursion get typed errors', async () => {
    const sessionId = await newSession();
    const recorder = record(sessionId);
    const reply = await send(sessionId, 'please delegate this');
    expect(reply).toMatchObject({ reason: 'final_answer', content: 'All done.' });
    await waitUntil(
      () => recorder.events.filter((event) => event.type === 'turn_finished').length >= 3,
      10_000,
      'parent and nested turns finished',
    );
    const nested = recorder.events.filter((event) => event['subtask'] !== undefined);
    expect(nested.find((event) => event.type === 'turn_started')).toMatchObject({
      subtask: { skill: 'pr-review', callId: 'x1', depth: 1 },
    });
    expect(
      recorder.events.find((event) => event.type === 'tool_call_finished' && event['callId'] === 'x4'),
    ).toMatchObject({
      ok: false,
      code: 'SKILL_RECURSION_LIMIT',
      subtask: { skill: 'self-runner', depth: 1 },
    });
    const session = await api.ok<{ messages: Array<{ role: string }> }>('sessions.get', {
      id: sessionId,
      includeMessages: true,
    });
    // The sub-tasks' messages stay out of the session: only the parent's calls and results are stored.
    expect(session.messages.map((message) => message.role)).toEqual([
      'user',
      'assistant',
      'tool',
      'tool',
      'assistant',
      'tool',
      'assistant',
      'tool',
      'assistant',
    ]);
    await recorder.subscription.unsubscribe();
  });

  it("a skill's webhook trigger fills its typed parameters from the body; a wrong type fails the job before the model", async () => {
    let routine: Routine | undefined;
    await waitUntil(
      async () => {
        const { routines } = await api.ok<{ routines: Routine[] }>('routines.list', {
          owner: 'skill:pr-review',
        });
        routine = routines.find((entry) => entry.trigger.kind === 'webhook');
        return routine !== undefined;
      },
      15_000,
      'the webhook routine of pr-review',
      200,
    );
    const { webhookSecret } = await api.ok<{ webhookSecret: string }>('routines.secret', { id: routine!.id });
    const fire = async (body: Record<string, unknown>): Promise<Job> => {
      const text = JSON.stringify(body);
      const response = await fetch(`http://127.0.0.1:${httpPort}/v1/hooks/${routine!.id}`, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          'talon-signature': signWebhook(webhookSecret, text, Math.floor(Date.now() / 1000)),
        },
        body: text,
      });
      const accepted = (await response.json()) as { ok: boolean; data: RoutineFire };
      expect(response.status).toBe(202);
      const jobId = accepted.data.jobId;
      let job: Job | undefined;
      await waitUntil(
        async () => {
          job = await api.ok<Job>('jobs.get', { id: jobId });
          return ['completed', 'failed', 'cancelled'].includes(job.state);
        },
        30_000,
        'the skill job finished',
        200,
      );
      return job!;
    };

    // The API's own params are checked when the job is created.
    const refused = await api.call('jobs.create', {
      action: { kind: 'skill', skill: 'pr-review', params: { pr_link: 'https://git.example/pr/1' } },
    });
    expect(refused).toMatchObject({
      ok: false,
      error: { code: 'SCHEMA_VIOLATION', details: { parameter: 'pr_link' } },
    });

    // A wrong type is refused against the declaration: the job fails naming the parameter, no model call.
    const wrong = await fire({ pr_url: 42, action: 'opened' });
    expect(wrong).toMatchObject({ state: 'failed', error: { code: 'SCHEMA_VIOLATION' } });
    expect(wrong.error!.message).toMatch(/pr_url/);

    // Declared keys fill the parameters (the array renders through the join filter), others are dropped.
    const job = await fire({
      pr_url: 'https://git.example/pr/11',
      focus_areas: ['docs', 'naming'],
      action: 'opened',
    });
    expect(job).toMatchObject({
      state: 'completed',
      kind: 'skill',
      result: { content: 'Reviewed from the hook.' },
    });
  });

  it("a hand's settings fill the typed parameters of the skill it names", async () => {
    const waitForRun = async (runId: string): Promise<HandRun> => {
      let run: HandRun | undefined;
      await waitUntil(
        async () => {
          run = await api.ok<HandRun>('hands.runs.get', { runId });
          return ['completed', 'failed', 'cancelled'].includes(run.state);
        },
        30_000,
        'the hand run finished',
        200,
      );
      return run!;
    };
    // Text settings coerce to the declared types: "api, docs" is the array the join filter renders.
    const run = await waitForRun(
      (
        await api.ok<HandRun>('hands.execute', {
          id: 'reviewer',
          settings: { pr_url: 'https://git.example/pr/12', focus_areas: 'api, docs' },
        })
      ).id,
    );
    expect(run).toMatchObject({ state: 'completed', result: { content: 'Reviewed by the hand.' } });
  });
});
