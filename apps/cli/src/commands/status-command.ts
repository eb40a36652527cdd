import type { HandInstancesReply, HandsListReply, SystemStatus } from '@talon/contracts';
import { formatHandsStatus } from '../hands-table.js';
import { formatStatusTable } from '../status-table.js';
import { connectTalonApiFromCli, type TalonApiConnection } from '../talon-api-connection.js';

/** `talon status`: `system.status` as a readable table. Exit code 1 when any service is down. */
export async function statusCommand(print: (line: string) => void): Promise<number> {
  let api: TalonApiConnection;
  try {
    api = await connectTalonApiFromCli('talon-status');
  } catch (error) {
    print((error as Error).message);
    return 1;
  }
  try {
    const status = await api.call<SystemStatus>('system.status', {}, 5000);
    print(formatStatusTable(status));
    // Hands are the orchestrator's; a Talon without them still has a status.
    try {
      const [hands, instances, waiting] = await Promise.all([
        api.call<HandsListReply>('hands.list', {}, 5000),
        api.call<HandInstancesReply>('hands.instances', {}, 5000),
        api.call<{ runs: unknown[] }>('hands.runs.list', { state: 'awaiting_approval' }, 5000),
      ]);
      print('');
      print(formatHandsStatus(hands, instances, waiting.runs.length));
    } catch (error) {
      print(`hands: ${(error as Error).message}`);
    }
    return status.services.every((service) => service.state === 'up') ? 0 : 1;
  } catch (error) {
    print(`system.status failed: ${(error as Error).message}`);
    return 1;
  } finally {
    await api.close();
  }
}
