import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { mkdir, mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import type { ChatEvent, ChatSendReply } from '@talon/contracts';
import type { LlmTestServer } from '../../../libs/llm/test/support/index.js';
import { startTalonStack, type TalonStack } from './support/talon-stack.js';

const CHECKLIST = `---
name: release-checklist
description: Walk through the release checklist for a new version. Use when someone prepares a release.
---
# Release checklist
Read references/steps.md and follow it step by step.
`;
const STEPS = 'Step 1: freeze the branch.\nStep 2: tag the release.\n';
const INSTALLED = `---
name: crypto-tips
description: Suggestions about cryptocurrency wallets.
---
Always mention hardware wallets.
`;

/**
 * Model-driven skills on the real stack (skill-service in `SKILLS_MODE=model`, tool-worker, orchestrator, a
 * scripted OpenAI-compatible model): the index in the system prompt, `skill_load` and `skill_read_file`, a path
 * escape refused with PATH_OUTSIDE_SKILL, and an Installed skill narrowing the tools from the next call on.
 */
describe('model-driven skills: index, skill_load, skill_read_file', () => {
  let stack: TalonStack;
  let llm: LlmTestServer;

  beforeAll(async () => {
    const stateDir = await mkdtemp(join(tmpdir(), 'talon-model-skills-'));
    await mkdir(join(stateDir, 'skills', 'release-checklist', 'references'), { recursive: true });
    await mkdir(join(stateDir, 'installed', 'crypto-tips'), { recursive: true });
    await writeFile(join(stateDir, 'skills', 'release-checklist', 'SKILL.md'), CHECKLIST);
    await writeFile(join(stateDir, 'skills', 'release-checklist', 'references', 'steps.md'), STEPS);
    await writeFile(join(stateDir, 'secret.txt'), 'do not read me');
    await writeFile(join(stateDir, 'installed', 'crypto-tips', 'SKILL.md'), INSTALLED);
    stack = await startTalonStack({
      name: 'talon-model-skills-',
      stateDir,
      model: 'openai',
      workers: {
        'skill-service': {
          SKILLS_MODE: 'model',
          SKILLS_DIR: join(stateDir, 'user-skills'),
          SKILLS_INSTALLED_DIR: join(stateDir, 'installed'),
        },
        'tool-worker': {},
      },
    });
    ({ llm } = stack);
  }, 120_000);

  afterAll(() => stack?.close());

  const api = <T>(method: string, payload: unknown, timeoutMs?: number): Promise<T> =>
    stack.api.ok<T>(method, payload, timeoutMs);

  type Request = { body: Record<string, unknown> };
  const toolNamesOf = (request: Request) =>
    ((request.body.tools as Array<{ function: { name: string } }>) ?? [])
      .map((tool) => tool.function.name)
      .sort();
  const messagesOf = (request: Request) => request.body.messages as Array<{ role: string; content: string }>;
  const toolResults = (request: Request) => messagesOf(request).filter((message) => message.role === 'tool');

  async function waitForCatalog(names: string[]): Promise<void> {
    const deadline = Date.now() + 20_000;
    for (;;) {
      const listed = await api<{ tools: Array<{ definition: { name: string } }> }>('tools.list', {});
      if (names.every((name) => listed.tools.some((tool) => tool.definition.name === name))) return;
      if (Date.now() > deadline) throw new Error(`catalog never had ${names.join(', ')}`);
      await sleep(100);
    }
  }

  it('lists skills in an index, loads and reads them, refuses an escape and narrows after an Installed load', async () => {
    await waitForCatalog(['skill_load', 'skill_read_file', 'echo', 'web_fetch']);
    const sessionId = (await api<{ id: string }>('sessions.create', { title: 'model skills' })).id;
    const events: ChatEvent[] = [];
    const subscription = stack.api.connection.subscribe(`talon.events.v1.session.${sessionId}`, {
      callback: (_error, message) => void events.push(message.json<ChatEvent>()),
    });
    const first = llm.requests.length;
    llm.enqueue(
      { toolCalls: [{ name: 'skill_load', arguments: { name: 'release-checklist' } }] },
      {
        toolCalls: [
          { name: 'skill_read_file', arguments: { name: 'release-checklist', path: 'references/steps.md' } },
          { name: 'skill_read_file', arguments: { name: 'release-checklist', path: '../../secret.txt' } },
        ],
      },
      { toolCalls: [{ name: 'skill_load', arguments: { name: 'crypto-tips' } }] },
      { text: 'Branch frozen, tag next.' },
    );
    const reply = await api<ChatSendReply>('chat.send', {
      sessionId,
      message: 'Please prepare the v2 release.',
    });
    expect(reply).toMatchObject({ reason: 'final_answer', content: 'Branch frozen, tag next.' });
    const [indexCall, afterLoad, afterRead, afterInstalled] = llm.requests.slice(first) as Request[];

    // Model mode: nothing injected up front, the index lists both skills.
    const system = messagesOf(indexCall!)[0]!.content;
    expect(system).toContain('<available_skills>');
    expect(system).toMatch(/- release-checklist \(trusted\): Walk through the release checklist/);
    expect(system).toContain('- crypto-tips (installed)');
    expect(system).not.toContain('<skill name=');

    // skill_load: the rendered block and the files; the block joins the system prompt for the next call.
    expect(toolResults(afterLoad!).at(-1)!.content).toContain('references/steps.md');
    expect(messagesOf(afterLoad!)[0]!.content).toContain('<skill name="release-checklist"');

    // skill_read_file: the file, and the escape refused with its typed code.
    const [read, escape] = toolResults(afterRead!).slice(-2);
    expect(read!.content).toContain('Step 1: freeze the branch.');
    expect(escape!.content).toContain('PATH_OUTSIDE_SKILL');
    expect(escape!.content).not.toContain('do not read me');
    expect(toolNamesOf(afterRead!)).toContain('web_fetch');

    // Loading an Installed skill says so and narrows the tools from the next model call on.
    expect(toolResults(afterInstalled!).at(-1)!.content).toContain('only read-only tools are available');
    const narrowed = toolNamesOf(afterInstalled!);
    expect(narrowed).not.toContain('web_fetch');
    expect(narrowed).toEqual(expect.arrayContaining(['echo', 'skill_load', 'skill_read_file']));
    expect(messagesOf(afterInstalled!)[0]!.content).toContain('trust="INSTALLED"');
    const announced = events.filter((event) => event.type === 'skills_selected');
    expect(announced.at(-1)).toMatchObject({
      skills: expect.arrayContaining([expect.objectContaining({ name: 'crypto-tips', trust: 'INSTALLED' })]),
      removedTools: expect.arrayContaining([expect.objectContaining({ name: 'web_fetch' })]),
    });
    await subscription.unsubscribe();
  });
});
