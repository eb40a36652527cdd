import { parseArgs } from 'node:util';
import { API_SCOPES, type ApiTokenInfo, type TokensCreateReply } from '@talon/contracts';
import { connectTalonApiFromCli, type TalonApiConnection } from '../talon-api-connection.js';

/** `talon token --help`. */
export const TOKEN_USAGE = `Usage: pnpm talon token <create|list|revoke> [options]

  create --name NAME --scope read|agent|operator [--expires 30d|12h|90m] [--json]
         prints the new token once (it is stored hashed); give it to the caller
  list   [--all] [--json]      tokens with scope, creation, last use and expiry (--all: revoked too)
  revoke ID [--json]           revoke a token; every orchestrator refuses it within a second`;

/** `30d`, `12h`, `90m`, `3600s` (or plain seconds) → seconds. */
function parseLifetime(text: string): number | undefined {
  const match = /^(\d+)([smhd]?)$/.exec(text.trim());
  if (!match) return undefined;
  const unit = { '': 1, s: 1, m: 60, h: 3600, d: 86_400 }[match[2] as '' | 's' | 'm' | 'h' | 'd'];
  return Number(match[1]) * unit;
}

function formatTokens(tokens: readonly ApiTokenInfo[]): string[] {
  if (tokens.length === 0) return ['no tokens'];
  const rows = tokens.map((token) => [
    token.id,
    token.name,
    token.scope,
    token.createdAt.slice(0, 16).replace('T', ' '),
    token.lastUsedAt ? token.lastUsedAt.slice(0, 16).replace('T', ' ') : 'never',
    token.revokedAt ? 'revoked' : token.expiresAt ? `expires ${token.expiresAt.slice(0, 10)}` : 'active',
  ]);
  const header = ['ID', 'NAME', 'SCOPE', 'CREATED', 'LAST USED', 'STATE'];
  const widths = header.map((title, column) =>
    Math.max(title.length, ...rows.map((row) => row[column]!.length)),
  );
  const line = (cells: string[]) =>
    cells
      .map((cell, column) => cell.padEnd(widths[column]!))
      .join('  ')
      .trimEnd();
  return [line(header), ...rows.map(line)];
}

/** `talon token create|list|revoke`: API tokens, for operators. */
export async function tokenCommand(args: readonly string[], print: (line: string) => void): Promise<number> {
  const [action, ...rest] = args;
  let parsed;
  try {
    parsed = parseArgs({
      args: [...rest],
      allowPositionals: true,
      options: {
        name: { type: 'string' },
        scope: { type: 'string' },
        expires: { type: 'string' },
        all: { type: 'boolean' },
        json: { type: 'boolean' },
        help: { type: 'boolean', short: 'h' },
      },
    });
  } catch (error) {
    print(`${(error as Error).message}\n\n${TOKEN_USAGE}`);
    return 2;
  }
  const { values, positionals } = parsed;
  if (!action || values.help || !['create', 'list', 'revoke'].includes(action)) {
    print(TOKEN_USAGE);
    return action && !values.help ? 2 : 0;
  }
  let payload: Record<string, unknown>;
  if (action === 'create') {
    if (!values.name || !values.scope || !(API_SCOPES as readonly string[]).includes(values.scope)) {
      print(`token create needs --name and --scope (${API_SCOPES.join(', ')}).\n\n${TOKEN_USAGE}`);
      return 2;
    }
    const seconds = values.expires === undefined ? undefined : parseLifetime(values.expires);
    if (values.expires !== undefined && !seconds) {
      print(`--expires takes a lifetime like 30d, 12h or 90m (got "${values.expires}").`);
      return 2;
    }
    payload = { name: values.name, scope: values.scope, ...(seconds ? { expiresInSeconds: seconds } : {}) };
  } else if (action === 'revoke') {
    if (!positionals[0]) {
      print(`token revoke needs the token id (see \`pnpm talon token list\`).\n\n${TOKEN_USAGE}`);
      return 2;
    }
    payload = { id: positionals[0] };
  } else payload = { includeRevoked: values.all ?? false };

  let api: TalonApiConnection;
  try {
    api = await connectTalonApiFromCli('talon-token');
  } catch (error) {
    print((error as Error).message);
    return 1;
  }
  try {
    const reply = await api.call<unknown>(`tokens.${action}`, payload);
    if (values.json) print(JSON.stringify(reply, null, 2));
    else if (action === 'create') {
      const created = reply as TokensCreateReply;
      print(
        `Created ${created.id} "${created.name}" with scope ${created.scope}${created.expiresAt ? `, expires ${created.expiresAt}` : ''}.`,
      );
      print('The token (shown only now):');
      print(created.token);
    } else if (action === 'revoke') print(`Revoked ${(reply as ApiTokenInfo).id}.`);
    else formatTokens((reply as { tokens: ApiTokenInfo[] }).tokens).forEach((line) => print(line));
    return 0;
  } catch (error) {
    const code = (error as { code?: string }).code;
    print(`tokens.${action} failed: ${code ? `${code}: ` : ''}${(error as Error).message}`);
    return 1;
  } finally {
    await api.close();
  }
}
