/** The only PATH a sandboxed process gets. */
export const SANDBOX_PATH = '/usr/local/bin:/usr/bin:/bin';
/** Variables a sandboxed process may receive from its caller; everything else is dropped. */
export const SANDBOX_ENV_ALLOWLIST = ['LANG', 'LC_ALL', 'TZ', 'TERM', 'NO_COLOR', 'FORCE_COLOR'] as const;
/** Names never passed in, even when a definition sets them (Talon's own credentials and wiring). */
const FORBIDDEN =
  /^(NATS_|TALON_|DATABASE_URL$|PG|AWS_|GOOGLE_APPLICATION|AZURE_|OPENAI_|ANTHROPIC_|NODE_OPTIONS$|LD_|BASH_ENV$|ENV$)/;

/**
 * The environment of a sandboxed process, built from nothing: PATH, HOME (the private `/tmp`), USER,
 * LANG, the caller's allowlisted variables and the definition's own `extra` (an MCP server's documented
 * settings), minus anything that names Talon's wiring or a cloud credential; plus the proxy variables.
 */
export function sandboxEnvironment(options: {
  inherited?: NodeJS.ProcessEnv;
  extra?: Readonly<Record<string, string>>;
  proxyUrl?: string;
}): Record<string, string> {
  const env: Record<string, string> = {
    PATH: SANDBOX_PATH,
    HOME: '/tmp',
    TMPDIR: '/tmp',
    USER: 'sandbox',
    LOGNAME: 'sandbox',
    SHELL: '/bin/sh',
    LANG: 'C.UTF-8',
  };
  for (const name of SANDBOX_ENV_ALLOWLIST) {
    const value = options.inherited?.[name];
    if (value !== undefined) env[name] = value;
  }
  for (const [name, value] of Object.entries(options.extra ?? {}))
    if (!FORBIDDEN.test(name) && !(name in env && name !== 'LANG')) env[name] = value;
  if (options.proxyUrl !== undefined) {
    for (const name of ['HTTP_PROXY', 'HTTPS_PROXY', 'http_proxy', 'https_proxy', 'ALL_PROXY', 'all_proxy'])
      env[name] = options.proxyUrl;
    env.NO_PROXY = '';
    env.no_proxy = '';
  }
  return env;
}
