import { connect } from '@nats-io/transport-node';
import { apiSubject } from '@talon/contracts';
import { NatsRequester } from '@talon/service-runtime';
import { formatStatusTable } from '../status-table.js';
/** `talon status`: `system.status` as a readable table. Exit code 1 when any service is down. */
export async function statusCommand(print) {
    const url = process.env.NATS_URL || 'nats://127.0.0.1:4222';
    let connection;
    try {
        connection = await connect({ servers: url, timeout: 2000 });
    }
    catch {
        print(`Cannot reach NATS at ${url}. Is Talon running? Start it with \`pnpm talon up\`.`);
        return 1;
    }
    try {
        const status = await new NatsRequester(connection).request(apiSubject('system.status'), {}, { timeoutMs: 5000 });
        print(formatStatusTable(status));
        return status.services.every((service) => service.state === 'up') ? 0 : 1;
    }
    catch (error) {
        print(`system.status failed: ${error.message}`);
        return 1;
    }
    finally {
        await connection.close();
    }
}
