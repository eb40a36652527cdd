import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { mkdir, mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ChatEvent, ChatSendReply, McpViewListReply, ToolsListReply } from '@talon/contracts';
import { waitUntil, type TalonApiClient } from '@talon/testing';
import { MEDIA_MCP_SERVER, startTalonStack, type TalonStack } from './support/talon-stack.js';

/**
 * A skill whose declared tool comes from a registry MCP server that is not running: for a Trusted skill the
 * orchestrator starts the server before the model is called (the model sees the tool in its first call);
 * an Installed skill only gets the `mcp_start` offer and nothing starts.
 */

const INSTALLED = `---
name: zebra-echo
description: Zebra stripes, told by an echo.
tools: [everything_echo]
activation:
  keywords: [zebra]
---
Echo the stripes.
`;

const TRUSTED = `---
name: giraffe-echo
description: Giraffe necks measured.
tools: [everything_echo]
activation:
  keywords: [giraffe]
---
Measure the neck.
`;

const SCRIPT = {
  steps: [
    {
      name: 'installed skill: offered, not started',
      expect: {
        systemContains: 'everything_echo via mcp_start {"server":"everything"}',
        toolsExclude: ['everything_echo'],
      },
      reply: { text: 'Offered only.' },
    },
    {
      name: 'trusted skill: started before the first model call',
      expect: { toolsInclude: ['everything_echo'] },
      reply: { text: 'Started and visible.' },
    },
    {
      name: 'an MCP prompt rendered by its server is the user message',
      expect: { lastUserMessageContains: "What's weather in Paris, TX?" },
      reply: { text: 'Sunny.' },
    },
    {
      name: 'agent path: the model calls an audio tool',
      reply: { toolCalls: [{ id: 'a1', name: 'media_tone', arguments: { samples: 100 } }] },
    },
    {
      expect: { toolResults: [{ callId: 'a1', contains: '[audio: audio/wav, 144 bytes, artifact sha256:' }] },
      reply: { text: 'Heard it.' },
    },
  ],
};

describe('MCP servers that active skills need (real wasm-runner, stdio server, scripted model)', () => {
  let stack: TalonStack;
  let api: TalonApiClient;

  beforeAll(async () => {
    const stateDir = await mkdtemp(join(tmpdir(), 'talon-skill-mcp-'));
    for (const [dir, name, text] of [
      ['installed', 'zebra-echo', INSTALLED],
      ['skills', 'giraffe-echo', TRUSTED],
    ] as const) {
      await mkdir(join(stateDir, dir, name), { recursive: true });
      await writeFile(join(stateDir, dir, name, 'SKILL.md'), text);
    }
    stack = await startTalonStack({
      name: 'talon-skill-mcp-',
      stateDir,
      model: { script: SCRIPT },
      // A server that answers audio, for the agent path of media.
      mcpServers: [MEDIA_MCP_SERVER],
      workers: {
        'skill-service': {
          SKILLS_DIR: join(stateDir, 'user-skills'),
          SKILLS_INSTALLED_DIR: join(stateDir, 'installed'),
        },
        'wasm-runner': {},
      },
      orchestratorEnv: { TALON_SKILL_MCP_START_WAIT_MS: '20000' },
      mcpListed: ['everything'],
    });
    ({ api } = stack);
  }, 120_000);

  afterAll(() => stack?.close());

  const everything = async () =>
    (await api.ok<McpViewListReply>('mcp.list', {})).servers.find((server) => server.name === 'everything')!;
  const send = async (message: string) => {
    const { id } = await api.ok<{ id: string }>('sessions.create', { title: 'skill mcp' });
    const events: ChatEvent[] = [];
    const subscription = api.connection.subscribe(`talon.events.v1.session.${id}`, {
      callback: (_error, message) => void events.push(message.json<ChatEvent>()),
    });
    const reply = await api.ok<ChatSendReply>('chat.send', { sessionId: id, message }, 60_000);
    await waitUntil(() => events.some((event) => event.type === 'turn_finished'), 10_000, 'turn_finished');
    await subscription.unsubscribe();
    const selected = events.find((event) => event.type === 'skills_selected') as
      { skills: Array<{ name: string; reasons: string[] }> } | undefined;
    return { reply, skills: selected?.skills ?? [] };
  };

  it('an Installed skill gets the mcp_start offer and starts nothing', async () => {
    const { reply, skills } = await send('zebra stripes?');
    expect(skills.map((skill) => skill.name)).toEqual(['zebra-echo']);
    expect(reply).toMatchObject({ reason: 'final_answer', content: 'Offered only.' });
    expect((await everything()).state).toBe('stopped');
    const names = (await api.ok<ToolsListReply>('tools.list', {})).tools.map((tool) => tool.definition.name);
    expect(names).not.toContain('everything_echo');
  });

  it("a Trusted skill's MCP server is started before the model is called, and the activation says so", async () => {
    const { reply, skills } = await send('giraffe necks?');
    expect(skills).toEqual([
      expect.objectContaining({
        name: 'giraffe-echo',
        reasons: expect.arrayContaining(['started the MCP server "everything" for everything_echo']),
      }),
    ]);
    // The scripted step fails the turn unless everything_echo was among the tools of the first call.
    expect(reply).toMatchObject({ reason: 'final_answer', content: 'Started and visible.' });
    expect((await everything()).state).toBe('running');
  });

  it('/prompt runs a turn with an MCP prompt as its message; its arguments are checked first', async () => {
    const { id } = await api.ok<{ id: string }>('sessions.create', { title: 'prompts' });
    const send = (message: string) => api.call('chat.send', { sessionId: id, message }, 60_000);
    // A missing required argument is asked for, without a model call.
    expect(await send('/prompt everything.args-prompt')).toMatchObject({
      ok: true,
      data: { reason: 'needs_input', content: expect.stringContaining('city') },
    });
    expect(await send('/prompt everything.args-prompt city=Paris zip=75001')).toMatchObject({
      ok: false,
      error: { code: 'SCHEMA_VIOLATION', details: { undeclared: ['zip'] } },
    });
    expect(await send('/prompt everything.no-such-prompt')).toMatchObject({
      ok: false,
      error: { code: 'NOT_FOUND', message: expect.stringContaining('args-prompt') },
    });
    // The scripted step fails the turn unless the rendered prompt is the user message.
    expect(await send('/prompt everything.args-prompt city=Paris state=TX')).toMatchObject({
      ok: true,
      data: { reason: 'final_answer', content: 'Sunny.' },
    });
  });

  it('audio from an MCP tool reaches the model as a placeholder naming its artifact, which resolves', async () => {
    await api.ok('mcp.start', { server: 'media' });
    await waitUntil(
      async () =>
        (await api.ok<ToolsListReply>('tools.list', {})).tools.some(
          (tool) => tool.definition.name === 'media_tone',
        ),
      20_000,
      'media_tone in the catalog',
    );
    const { id } = await api.ok<{ id: string }>('sessions.create', { title: 'audio' });
    const reply = await api.ok<ChatSendReply>(
      'chat.send',
      { sessionId: id, message: 'play a short tone' },
      60_000,
    );
    // The scripted step checks the tool result the model read: the placeholder, not the base64.
    expect(reply).toMatchObject({ reason: 'final_answer', content: 'Heard it.' });
    const session = await api.ok<{ messages: Array<{ role: string; message: { content: string } }> }>(
      'sessions.get',
      { id, includeMessages: true },
    );
    const result = session.messages.find((entry) => entry.role === 'tool')!.message.content;
    expect(result).toContain('A tone of 100 samples.');
    const sha256 = /\[audio: audio\/wav, 144 bytes, artifact sha256:([0-9a-f]{64})\]/.exec(result)![1]!;
    expect(await api.ok('artifacts.get', { sha256 })).toMatchObject({ mimeType: 'audio/wav', bytes: 144 });
  });
});
