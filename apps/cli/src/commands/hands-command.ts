import { connect } from '@nats-io/transport-node';
import { apiSubject, type HandsListReply, type HandSummary } from '@talon/contracts';
import { NatsRequester } from '@talon/service-runtime';
import { formatHand, formatHandsTable } from '../hands-table.js';

const USAGE = `Usage:
  pnpm talon hands [list] [--json]     the hands, whether each is ready, and the refused HAND.toml files
  pnpm talon hands show <id> [--json]  one hand: settings, requirements, metrics`;

/** `talon hands`: lists hands through `hands.list` / `hands.get`, as a table or as JSON. */
export async function handsCommand(args: readonly string[], print: (line: string) => void): Promise<number> {
  const json = args.includes('--json');
  const [action = 'list', id] = args.filter((arg) => arg !== '--json');
  if ((action !== 'list' && action !== 'show') || (action === 'show' && !id)) {
    print(USAGE);
    return 2;
  }
  const url = process.env.NATS_URL || 'nats://127.0.0.1:4222';
  const connection = await connect({ servers: url, timeout: 2000 }).catch(() => undefined);
  if (!connection) {
    print(`Cannot reach NATS at ${url}. Start Talon with \`pnpm talon up\` first.`);
    return 1;
  }
  const requester = new NatsRequester(connection);
  try {
    if (action === 'show') {
      const hand = await requester.request<HandSummary>(
        apiSubject('hands.get'),
        { id },
        { timeoutMs: 10_000 },
      );
      print(json ? JSON.stringify(hand, null, 2) : formatHand(hand));
      return 0;
    }
    const reply = await requester.request<HandsListReply>(
      apiSubject('hands.list'),
      {},
      { timeoutMs: 10_000 },
    );
    print(json ? JSON.stringify(reply, null, 2) : formatHandsTable(reply));
    return 0;
  } catch (error) {
    print((error as Error).message);
    return 1;
  } finally {
    await connection.close();
  }
}
