import { createInterface } from 'node:readline';
import { SUBJECTS, type ChatEvent, type ChatSendReply } from '@talon/contracts';
import { connectTalonApiFromCli, type TalonApiConnection } from '../talon-api-connection.js';
import { ChatRenderer } from '../chat-renderer.js';
import { LineReader } from '../line-reader.js';
import { Spinner } from '../spinner.js';
import { styleFor } from '../terminal-style.js';

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

/** Why an approval prompt was given up (the approval itself is untouched). */
class PromptLeft extends Error {
  constructor(readonly why: 'interrupted' | 'answered elsewhere') {
    super(why);
  }
}

/**
 * `talon chat`: an interactive session. Output streams as the model writes, each tool call shows as one
 * line when it ends, approvals are asked inline (yes / no / always), slash commands work without a model
 * and list as tables. Ctrl-C: at an approval prompt leaves the approval pending; during a turn cancels
 * it (`sessions.cancel`); at the prompt leaves.
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
  const style = styleFor(out);
  const renderer = new ChatRenderer({ style, ...(out.isTTY ? { width: out.columns } : {}) });
  const spinner = new Spinner(out);
  const rl = createInterface({ input: process.stdin, output: out, terminal: process.stdin.isTTY });
  const lines = new LineReader(rl);
  let pendingApprovals = Promise.resolve();
  /** The approval prompts open now, by approval id (at most one shows at a time; others queue). */
  const prompts = new Map<string, AbortController>();
  let turnRunning = false;

  const help = await call<ChatSendReply>('chat.send', { sessionId: session.id, message: '/help' });
  const model = (help.command as { model?: string; help?: string } | undefined) ?? {};
  print(`Talon chat · session ${session.id}`);
  if (model.model && model.model !== 'configured') print(style.yellow(model.model));
  print('Type a message, /help for commands, /exit to leave.');

  const subscription = connection.subscribe(SUBJECTS.sessionEvents(session.id), {
    callback: (_error, message) => {
      const event = message.json<ChatEvent>();
      if (event.type === 'approval_requested') {
        const controller = new AbortController();
        prompts.set(String(event.approvalId), controller);
        pendingApprovals = pendingApprovals.then(() =>
          askApproval(lines, event, controller.signal, spinner, style, renderer, (id, decision) =>
            call('approvals.resolve', { id, decision, resolvedBy: 'cli' }),
          )
            .catch((error: unknown) => {
              spinner.stop();
              out.write(`${style.red((error as Error).message)}\n`);
            })
            .finally(() => prompts.delete(String(event.approvalId))),
        );
        return;
      }
      // Answered in the console or another terminal: its prompt here has nothing left to ask.
      if (event.type === 'approval_resolved')
        prompts.get(String(event.approvalId))?.abort(new PromptLeft('answered elsewhere'));
      const text = renderer.render(event);
      if (text !== undefined) {
        spinner.stop();
        out.write(text);
      }
      if (event.type === 'tool_call_started') spinner.start(renderer.runningLabel(event));
    },
  });

  // One Ctrl-C handler for the whole session, so a prompt, a turn and the idle prompt each get theirs.
  rl.on('SIGINT', () => {
    const prompt = [...prompts.values()].find((controller) => !controller.signal.aborted);
    if (prompt) {
      prompt.abort(new PromptLeft('interrupted'));
      return;
    }
    if (!turnRunning) {
      rl.close();
      return;
    }
    spinner.stop();
    out.write(`${renderer.endLine()}${style.yellow('cancelling…')}\n`);
    void call('sessions.cancel', { id: session.id }).catch((error: unknown) =>
      out.write(`${style.red((error as Error).message)}\n`),
    );
  });

  try {
    for (;;) {
      const line = ((await lines.next(`${style.bold('you ›')} `)) ?? '/exit').trim();
      if (!line) continue;
      if (line === '/exit' || line === '/quit') break;
      spinner.start('thinking');
      turnRunning = true;
      try {
        const reply = await call<ChatSendReply>(
          'chat.send',
          { sessionId: session.id, message: line },
          TURN_TIMEOUT_MS,
        );
        await pendingApprovals;
        spinner.stop();
        out.write(renderer.endLine());
        if (reply.error)
          out.write(`${style.red((reply.error as { message?: string }).message ?? 'the turn failed')}\n`);
      } catch (error) {
        spinner.stop();
        out.write(`${renderer.endLine()}${style.red((error as Error).message)}\n`);
      } finally {
        turnRunning = false;
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
  signal: AbortSignal,
  spinner: Spinner,
  style: ReturnType<typeof styleFor>,
  renderer: ChatRenderer,
  resolve: (id: string, decision: string) => Promise<unknown>,
): Promise<void> {
  if (signal.aborted) return;
  spinner.stop();
  const id = String(event.approvalId);
  const params = JSON.stringify(event.params ?? {});
  const question = `${renderer.endLine()}${style.yellow(`? allow ${String(event.tool)} ${params.length > 200 ? params.slice(0, 199) + '…' : params}`)}\n  ${String(event.reason ?? '')}\n  [y]es / [n]o / [a]lways for this session: `;
  try {
    for (;;) {
      const answer = ((await lines.next(question, signal)) ?? 'no').trim().toLowerCase();
      const decision = ANSWERS[answer];
      if (decision) {
        await resolve(id, decision);
        spinner.start('continuing');
        return;
      }
    }
  } catch (error) {
    if (!(error instanceof PromptLeft)) throw error;
    if (error.why === 'answered elsewhere') {
      process.stdout.write('\n');
      spinner.start('continuing');
      return;
    }
    process.stdout.write(
      `\n${style.yellow(`approval ${id} stays pending`)}: the turn waits for it; answer it in the console's inbox (or approvals.resolve). Ctrl-C again cancels the turn.\n`,
    );
    spinner.start(`waiting for approval ${id}`);
  }
}
