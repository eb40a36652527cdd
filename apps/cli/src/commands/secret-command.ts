import { createInterface } from 'node:readline/promises';
import { connectTalonApiFromCli, type TalonApiConnection } from '../talon-api-connection.js';

const USAGE = `Usage:
  pnpm talon secret set <NAME> [--host <pattern>]... [--header <Header-Name> | --query <param>]
                                 (the value is read from stdin, never from the command line)
  pnpm talon secret list
  pnpm talon secret delete <NAME>`;

async function readValue(): Promise<string> {
  if (!process.stdin.isTTY) {
    let text = '';
    for await (const chunk of process.stdin) text += chunk;
    return text.replace(/\r?\n$/, '');
  }
  const rl = createInterface({ input: process.stdin, output: process.stderr, terminal: true });
  const value = await rl.question('value (input hidden is not supported here; paste and press enter): ');
  rl.close();
  return value;
}

/** `talon secret …`: the only way besides the API to store a secret (no tool can set one). */
export async function secretCommand(args: readonly string[], print: (line: string) => void): Promise<number> {
  const [action, name, ...rest] = args;
  if (!action || (action !== 'list' && !name)) {
    print(USAGE);
    return 2;
  }
  let api: TalonApiConnection;
  try {
    api = await connectTalonApiFromCli('talon-secret');
  } catch (error) {
    print((error as Error).message);
    return 1;
  }
  const connection = api.connection;
  const call = <T>(method: string, payload: unknown) => api.call<T>(method, payload);
  try {
    if (action === 'list') {
      const { secrets } = await call<{
        secrets: Array<{ name: string; hostPatterns: string[]; location: { kind: string; name?: string } }>;
      }>('secrets.list', {});
      for (const secret of secrets)
        print(
          `${secret.name.padEnd(24)} ${secret.location.kind}${secret.location.name ? `:${secret.location.name}` : ''}  ${secret.hostPatterns.join(', ') || '(no hosts: never sent)'}`,
        );
      if (secrets.length === 0) print('no secrets');
      return 0;
    }
    if (action === 'delete') {
      const { deleted } = await call<{ deleted: boolean }>('secrets.delete', { name });
      print(deleted ? `deleted ${name}` : `no secret named ${name}`);
      return deleted ? 0 : 1;
    }
    if (action === 'set') {
      const hostPatterns: string[] = [];
      let location: { kind: 'bearer' | 'header' | 'query'; name?: string } = { kind: 'bearer' };
      for (let index = 0; index < rest.length; index++) {
        const flag = rest[index];
        const value = rest[++index];
        if (!value) throw new Error(`${flag} needs a value.\n${USAGE}`);
        if (flag === '--host') hostPatterns.push(value);
        else if (flag === '--header') location = { kind: 'header', name: value };
        else if (flag === '--query') location = { kind: 'query', name: value };
        else throw new Error(`Unknown option ${flag}.\n${USAGE}`);
      }
      const value = await readValue();
      await call('secrets.set', { name, value, hostPatterns, location });
      print(`stored ${name} (sent only to: ${hostPatterns.join(', ') || 'no host'})`);
      return 0;
    }
    print(USAGE);
    return 2;
  } catch (error) {
    print((error as Error).message);
    return 1;
  } finally {
    await connection.close();
  }
}
