import type { Session, SessionsCancelReply } from '@talon/contracts';
import { formatTable } from '../text-table.js';
import { timeInWords } from '../time-in-words.js';
import { withTalonApi } from '../talon-api-connection.js';

/** `talon sessions --help`. */
export const SESSIONS_USAGE = `Usage:
  pnpm talon sessions list [--json]
  pnpm talon sessions cancel <id> [--json]   (stops the session's running turn and its tool calls)`;

/** `talon sessions …`: list sessions, cancel a running turn. */
export async function sessionsCommand(
  args: readonly string[],
  print: (line: string) => void,
): Promise<number> {
  const json = args.includes('--json');
  const [action = 'list', id] = args.filter((arg) => arg !== '--json');
  if ((action !== 'list' && action !== 'cancel') || (action === 'cancel' && !id)) {
    print(SESSIONS_USAGE);
    return 2;
  }
  return withTalonApi(print, async (call) => {
    if (action === 'cancel') {
      const reply = await call<SessionsCancelReply>('sessions.cancel', { id });
      if (json) print(JSON.stringify(reply, null, 2));
      else
        print(
          reply.cancelled
            ? `cancelled the running turn of ${id}${reply.instanceId ? ` (on ${reply.instanceId})` : ''}`
            : `no turn of ${id} was running`,
        );
      return 0;
    }
    const { sessions } = await call<{ sessions: Session[] }>('sessions.list', {});
    if (json) print(JSON.stringify(sessions, null, 2));
    else if (sessions.length === 0) print('no sessions');
    else
      print(
        formatTable([
          ['ID', 'TITLE', 'MESSAGES', 'AUTONOMOUS', 'ACTIVE'],
          ...sessions.map((session) => [
            session.id,
            session.title.slice(0, 40),
            String(session.messageCount ?? '-'),
            session.autonomous ? 'yes' : 'no',
            timeInWords(new Date(session.updatedAt)),
          ]),
        ]),
      );
    return 0;
  });
}
