import { createInterface } from 'node:readline';
import { SUBJECTS, type ChatEvent, type ChatSendReply } from '@talon/contracts';
import { connectTalonApiFromCli, type TalonApiConnection } from '../talon-api-connection.js';
import { renderChatEvent } from '../chat-renderer.js';
import { LineReader } from '../line-reader.js';
import { Spinner } from '../spinner.js';

/** A turn may wait on people (approvals) and tools: give it a long deadline. */
const TURN_TIMEOUT_MS = 15 * 60_000;
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
 * run, approvals are asked inline (yes / no / always), slash commands work without a model, and
 * Ctrl-C during a turn cancels it (`sessions.cancel`).
 */
export async function chatCommand(print: (line: string) => void): Promise<number> {
  let api: TalonApiConnection;
  try {
    api = await connectTalonApiFromCli('talon-chat');
  } catch (error) {
    print((error as Error).message);
    return 1;
  }
  const connection = api.connection;
  const call = api.call;
  const session = await call<{ id: string }>('sessions.create', { title: 'talon chat' });
  const out = process.stdout;
  const spinner = new Spinner(out);
  const rl = createInterface({ input: process.stdin, output: out, terminal: process.stdin.isTTY });
  const lines = new LineReader(rl);
  let pendingApprovals = Promise.resolve();

  const help = await call<ChatSendReply>('chat.send', { sessionId: session.id, message: '/help' });
  const model = (help.command as { model?: string; help?: string } | undefined) ?? {};
  print(`Talon chat · session ${session.id}`);
  if (model.model && model.model !== 'configured') print(`\x1b[33m${model.model}\x1b[0m`);
  print('Type a message, /help for commands, /exit to leave.');

  const subscription = connection.subscribe(SUBJECTS.sessionEvents(session.id), {
    callback: (_error, message) => {
      const event = message.json<ChatEvent>();
      if (event.type === 'approval_requested') {
        pendingApprovals = pendingApprovals.then(() =>
          askApproval(lines, event, spinner, (id, decision) =>
            call('approvals.resolve', { id, decision, resolvedBy: 'cli' }),
          ),
        );
        return;
      }
      const text = renderChatEvent(event);
      if (text === undefined) return;
      spinner.stop();
      out.write(text);
      if (event.type === 'tool_call_started') spinner.start(`running ${event.tool}`);
    },
  });

  try {
    for (;;) {
      const line = ((await lines.next('\x1b[1myou ›\x1b[0m ')) ?? '/exit').trim();
      if (!line) continue;
      if (line === '/exit' || line === '/quit') break;
      spinner.start('thinking');
      // Ctrl-C while the turn runs cancels it (and its tool calls); at the prompt it leaves.
      const cancelTurn = (): void => {
        spinner.stop();
        out.write('\x1b[33mcancelling…\x1b[0m\n');
        void call('sessions.cancel', { id: session.id }).catch((error: unknown) =>
          out.write(`\x1b[31m${(error as Error).message}\x1b[0m\n`),
        );
      };
      rl.on('SIGINT', cancelTurn);
      try {
        const reply = await call<ChatSendReply>(
          'chat.send',
          { sessionId: session.id, message: line },
          TURN_TIMEOUT_MS,
        );
        await pendingApprovals;
        spinner.stop();
        if (reply.reason !== 'command') out.write('\n');
        if (reply.error)
          out.write(`\x1b[31m${(reply.error as { message?: string }).message ?? 'the turn failed'}\x1b[0m\n`);
      } catch (error) {
        spinner.stop();
        out.write(`\x1b[31m${(error as Error).message}\x1b[0m\n`);
      } finally {
        rl.off('SIGINT', cancelTurn);
      }
    }
  } finally {
    spinner.stop();
    subscription.unsubscribe();
    rl.close();
    await connection.close();
  }
  return 0;
}

async function askApproval(
  lines: LineReader,
  event: ChatEvent,
  spinner: Spinner,
  resolve: (id: string, decision: string) => Promise<unknown>,
): Promise<void> {
  spinner.stop();
  const params = JSON.stringify(event.params ?? {});
  for (;;) {
    const answer = (
      (await lines.next(
        `\x1b[33m? allow ${event.tool} ${params.length > 200 ? params.slice(0, 199) + '…' : params}\x1b[0m\n  ${event.reason ?? ''}\n  [y]es / [n]o / [a]lways for this session: `,
      )) ?? 'no'
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
