import type { HandsListReply, HandSummary } from '@talon/contracts';
import { connectTalonApiFromCli, type TalonApiConnection } from '../talon-api-connection.js';
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
  let api: TalonApiConnection;
  try {
    api = await connectTalonApiFromCli('talon-hands');
  } catch (error) {
    print((error as Error).message);
    return 1;
  }
  try {
    if (action === 'show') {
      const hand = await api.call<HandSummary>('hands.get', { id });
      print(json ? JSON.stringify(hand, null, 2) : formatHand(hand));
      return 0;
    }
    const reply = await api.call<HandsListReply>('hands.list', {});
    print(json ? JSON.stringify(reply, null, 2) : formatHandsTable(reply));
    return 0;
  } catch (error) {
    print((error as Error).message);
    return 1;
  } finally {
    await api.close();
  }
}
