import { createInterface, type Interface } from 'node:readline/promises';
import type { ChatEvent, ChatSendReply, TypedChatEvent } from '@talon/contracts';
import { connectTalonApiFromCli, type TalonApiConnection } from '../talon-api-connection.js';
import { renderChatEvent } from '../chat-renderer.js';
import { Spinner } from '../spinner.js';

const ANSWERS: Record<string, 'approve' | 'deny' | 'approve_always'> = {
  y: 'approve',
  yes: 'approve',
  n: 'deny',
  no: 'deny',
  a: 'approve_always',
  always: 'approve_always',
};

/**
 * `talon chat`: an interactive session. Output streams as the model writes, tool calls show as they
 * run, approvals are asked inline (yes / no / always), and slash commands work without a model.
 */
export async function chatCommand(print: (line: string) => void): Promise<number> {
  let api: TalonApiConnection;
  try {
    api = await connectTalonApiFromCli('talon-chat');
  } catch (error) {
    print((error as Error).message);
    return 1;
  }
  const call = api.call;
  const session = await call<{ id: string }>('sessions.create', { title: 'talon chat' });
  const out = process.stdout;
  const spinner = new Spinner(out);
  const rl = createInterface({ input: process.stdin, output: out, terminal: process.stdin.isTTY });

  const help = await call<ChatSendReply>('chat.send', { sessionId: session.id, message: '/help' });
  const model = (help.command as { model?: string; help?: string } | undefined) ?? {};
  print(`Talon chat · session ${session.id}`);
  if (model.model && model.model !== 'configured') print(`\x1b[33m${model.model}\x1b[0m`);
  print('Type a message, /help for commands, /exit to leave.');

  try {
    for (;;) {
      const line = (await rl.question('\x1b[1myou ›\x1b[0m ').catch(() => '/exit')).trim();
      if (!line) continue;
      if (line === '/exit' || line === '/quit') break;
      spinner.start('thinking');
      try {
        // The turn's events as they happen; an approval is asked inline while the stream waits.
        for await (const event of api.client.chat.stream(session.id, line)) {
          if (event.type === 'approval_requested') {
            await askApproval(rl, event, spinner, (id, decision) =>
              api.client.approvals.resolve({ id, decision, resolvedBy: 'cli' }),
            );
            continue;
          }
          if (event.type === 'result') {
            spinner.stop();
            if (event.reason !== 'command') out.write('\n');
            if (event.error)
              out.write(
                `\x1b[31m${(event.error as { message?: string }).message ?? 'the turn failed'}\x1b[0m\n`,
              );
            continue;
          }
          const text = renderChatEvent(event as unknown as ChatEvent);
          if (text === undefined) continue;
          spinner.stop();
          out.write(text);
          if (event.type === 'tool_call_started') spinner.start(`running ${event.tool}`);
        }
      } catch (error) {
        spinner.stop();
        out.write(`\x1b[31m${(error as Error).message}\x1b[0m\n`);
      }
    }
  } finally {
    spinner.stop();
    rl.close();
    await api.close();
  }
  return 0;
}

async function askApproval(
  rl: Interface,
  event: Extract<TypedChatEvent, { type: 'approval_requested' }>,
  spinner: Spinner,
  resolve: (id: string, decision: 'approve' | 'deny' | 'approve_always') => Promise<unknown>,
): Promise<void> {
  spinner.stop();
  const params = JSON.stringify(event.params ?? {});
  for (;;) {
    const answer = (
      await rl.question(
        `\x1b[33m? allow ${event.tool} ${params.length > 200 ? params.slice(0, 199) + '…' : params}\x1b[0m\n  ${event.reason ?? ''}\n  [y]es / [n]o / [a]lways for this session: `,
      )
    )
      .trim()
      .toLowerCase();
    const decision = ANSWERS[answer];
    if (decision) {
      await resolve(String(event.approvalId), decision);
      spinner.start('continuing');
      return;
    }
  }
}
