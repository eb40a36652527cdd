import { createInterface } from 'node:readline/promises';
import { connect } from '@nats-io/transport-node';
import { apiSubject } from '@talon/contracts';
import { NatsRequester } from '@talon/service-runtime';
const USAGE = `Usage:
  pnpm talon secret set <NAME> [--host <pattern>]... [--header <Header-Name> | --query <param>]
                                 (the value is read from stdin, never from the command line)
  pnpm talon secret list
  pnpm talon secret delete <NAME>`;
async function readValue() {
    if (!process.stdin.isTTY) {
        let text = '';
        for await (const chunk of process.stdin)
            text += chunk;
        return text.replace(/\r?\n$/, '');
    }
    const rl = createInterface({ input: process.stdin, output: process.stderr, terminal: true });
    const value = await rl.question('value (input hidden is not supported here; paste and press enter): ');
    rl.close();
    return value;
}
/** `talon secret …`: the only way besides the API to store a secret (no tool can set one). */
export async function secretCommand(args, print) {
    const [action, name, ...rest] = args;
    if (!action || (action !== 'list' && !name)) {
        print(USAGE);
        return 2;
    }
    const url = process.env.NATS_URL || 'nats://127.0.0.1:4222';
    const connection = await connect({ servers: url, timeout: 2000 }).catch(() => undefined);
    if (!connection) {
        print(`Cannot reach NATS at ${url}. Start Talon with \`pnpm talon up\` first.`);
        return 1;
    }
    const call = (method, payload) => new NatsRequester(connection).request(apiSubject(method), payload, { timeoutMs: 10_000 });
    try {
        if (action === 'list') {
            const { secrets } = await call('secrets.list', {});
            for (const secret of secrets)
                print(`${secret.name.padEnd(24)} ${secret.location.kind}${secret.location.name ? `:${secret.location.name}` : ''}  ${secret.hostPatterns.join(', ') || '(no hosts: never sent)'}`);
            if (secrets.length === 0)
                print('no secrets');
            return 0;
        }
        if (action === 'delete') {
            const { deleted } = await call('secrets.delete', { name });
            print(deleted ? `deleted ${name}` : `no secret named ${name}`);
            return deleted ? 0 : 1;
        }
        if (action === 'set') {
            const hostPatterns = [];
            let location = { kind: 'bearer' };
            for (let index = 0; index < rest.length; index++) {
                const flag = rest[index];
                const value = rest[++index];
                if (!value)
                    throw new Error(`${flag} needs a value.\n${USAGE}`);
                if (flag === '--host')
                    hostPatterns.push(value);
                else if (flag === '--header')
                    location = { kind: 'header', name: value };
                else if (flag === '--query')
                    location = { kind: 'query', name: value };
                else
                    throw new Error(`Unknown option ${flag}.\n${USAGE}`);
            }
            const value = await readValue();
            await call('secrets.set', { name, value, hostPatterns, location });
            print(`stored ${name} (sent only to: ${hostPatterns.join(', ') || 'no host'})`);
            return 0;
        }
        print(USAGE);
        return 2;
    }
    catch (error) {
        print(error.message);
        return 1;
    }
    finally {
        await connection.close();
    }
}
