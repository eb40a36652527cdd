import { HiddenInputCancelled, readHiddenLine } from '../hidden-input.js';
import { connectTalonApiFromCli, type TalonApiConnection } from '../talon-api-connection.js';

/** `talon secret --help`. */
export const SECRET_USAGE = `Usage:
  pnpm talon secret set <NAME> [--host <pattern>]... [--header <Header-Name> | --query <param>]
                                 (the value is typed hidden on a terminal, else read from stdin;
                                  never from the command line)
  pnpm talon secret list
  pnpm talon secret delete <NAME>`;

/** The value: typed hidden on a terminal, else all of stdin (one trailing newline dropped). */
async function readValue(name: string): Promise<string> {
  if (!process.stdin.isTTY) {
    let text = '';
    for await (const chunk of process.stdin) text += chunk;
    return text.replace(/\r?\n$/, '');
  }
  return readHiddenLine(`value of ${name} (not shown as you type): `, process.stdin, process.stderr);
}

interface SetRequest {
  hostPatterns: string[];
  location: { kind: 'bearer' | 'header' | 'query'; name?: string };
}

function parseSetFlags(rest: readonly string[]): SetRequest {
  const hostPatterns: string[] = [];
  let location: SetRequest['location'] = { kind: 'bearer' };
  for (let index = 0; index < rest.length; index++) {
    const flag = rest[index];
    const value = rest[++index];
    if (!value) throw new Error(`${flag} needs a value.\n${SECRET_USAGE}`);
    if (flag === '--host') hostPatterns.push(value);
    else if (flag === '--header') location = { kind: 'header', name: value };
    else if (flag === '--query') location = { kind: 'query', name: value };
    else throw new Error(`Unknown option ${flag}.\n${SECRET_USAGE}`);
  }
  return { hostPatterns, location };
}

/** `talon secret …`: the only way besides the API to store a secret (no tool can set one). */
export async function secretCommand(args: readonly string[], print: (line: string) => void): Promise<number> {
  const [action, name, ...rest] = args;
  if (!action || (action !== 'list' && !name)) {
    print(SECRET_USAGE);
    return 2;
  }
  // The value is read before connecting: a mistake costs no round trip, and nothing waits on a prompt.
  let request: (SetRequest & { value: string }) | undefined;
  if (action === 'set') {
    try {
      const flags = parseSetFlags(rest);
      request = { ...flags, value: await readValue(name!) };
    } catch (error) {
      print((error as Error).message);
      return error instanceof HiddenInputCancelled ? 130 : 2;
    }
    if (request.value.trim() === '') {
      print(
        `The value of ${name} is empty: nothing was stored. Type it at the prompt, or pipe it in: printf %s "$VALUE" | pnpm talon secret set ${name}`,
      );
      return 2;
    }
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
    if (action === 'set' && request) {
      await call('secrets.set', { name, ...request });
      print(`stored ${name} (sent only to: ${request.hostPatterns.join(', ') || 'no host'})`);
      return 0;
    }
    print(SECRET_USAGE);
    return 2;
  } catch (error) {
    print((error as Error).message);
    return 1;
  } finally {
    await connection.close();
  }
}
