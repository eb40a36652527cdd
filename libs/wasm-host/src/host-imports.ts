import { TalonError } from '@talon/errors';
import { EgressScanner, knownSecretForms } from '@talon/safety';
import { RateLimitedError, SlidingWindowRateLimiter, type ToolLogger } from '@talon/tool-runtime';
import type { Capabilities } from './capabilities.js';
import { HostImportDeniedError } from './errors/host-import-denied-error.js';
import type { HostHttpClient } from './host-http-client.js';
import { findAllowEntry, hostMatches } from './http-allowlist.js';
import type { SecretsProvider } from './secrets-provider.js';
import type { GuestHttpRequest, GuestHttpResponse, HostAnswer, HostOperation } from './worker-protocol.js';
import { readWorkspaceFile } from './workspace-reader.js';

/** Calls another tool for `tool-invoke`; the integrator routes it through the orchestrator under the same policy. */
export type ToolInvoker = (
  toolName: string,
  params: Record<string, unknown>,
  call: HostCallContext,
) => Promise<unknown>;

/** What the host knows about the call a host import belongs to. */
export interface HostCallContext {
  callId: string;
  signal: AbortSignal;
  /** Tells `listener` of the abort without making `signal` (see ToolContext.onAbort and listenForCallAbort). */
  onAbort?(listener: (reason: unknown) => void): () => void;
  /** Secret values for injection (the call's grants, or a provider). */
  secrets: SecretsProvider;
  log: ToolLogger;
  sessionId?: string;
}

/** Services behind the host imports; a missing one denies its import. */
export interface HostImportsDependencies {
  httpClient?: HostHttpClient;
  /**
   * Inject credentials into plain-http requests too. Default false: a credential is only sent over https
   * (or to a loopback address, for local services and tests), so it cannot be read on the way.
   */
  allowCredentialsOverHttp?: boolean;
  workspaceRoot?: string;
  invokeTool?: ToolInvoker;
}

const REDACTED = '[REDACTED]';
const egressScanner = new EgressScanner();
const LOOPBACK_HOSTS = new Set(['127.0.0.1', '[::1]', 'localhost']);
const STRIPPED_REQUEST_HEADERS = new Set([
  'host',
  'content-length',
  'connection',
  'transfer-encoding',
  'proxy-authorization',
  'cookie',
]);

/** Replaces every secret, in each form a server could echo it (raw, percent-encoded, base64, hex). */
function scrub(text: string, secrets: readonly string[]): string {
  let out = text;
  // Longest first, so a form that contains another is replaced whole.
  const forms = knownSecretForms(secrets).sort((left, right) => right.length - left.length);
  for (const form of forms) if (out.includes(form)) out = out.split(form).join(REDACTED);
  return out;
}

/**
 * The host side of the `talon:tool/host` imports for one installed tool: each call is checked against the
 * tool's capabilities, and a denial becomes an error string for the guest (never a trap).
 */
export class HostImports {
  private readonly rateLimiter = new SlidingWindowRateLimiter();

  constructor(
    private readonly capabilities: Capabilities,
    private readonly dependencies: HostImportsDependencies,
  ) {}

  /** Answers one forwarded host operation. */
  async handle(operation: HostOperation, call: HostCallContext): Promise<HostAnswer> {
    try {
      switch (operation.op) {
        case 'http-request':
          return { ok: true, value: await this.httpRequest(operation.request, call) };
        case 'workspace-read':
          return { ok: true, value: await this.workspaceRead(operation.path) };
        case 'tool-invoke':
          return { ok: true, value: await this.toolInvoke(operation.alias, operation.paramsJson, call) };
      }
    } catch (error) {
      const message = TalonError.isInstance(error)
        ? error.message
        : `host error: ${error instanceof Error ? error.message : String(error)}`;
      call.log('warn', `host import ${operation.op} refused`, { reason: message });
      return { ok: false, error: `denied: ${message}` };
    }
  }

  /** The allowed secret names that have a value: what `secret-exists` answers true for. */
  async presentSecrets(call: HostCallContext): Promise<string[]> {
    const present: string[] = [];
    for (const name of this.capabilities.secrets)
      if ((await call.secrets.get(name)) !== undefined) present.push(name);
    return present;
  }

  private checkRateLimit(): void {
    const limit = this.capabilities.rateLimit;
    if (!limit) return;
    try {
      this.rateLimiter.take('http-request', 'http-request', limit);
    } catch (error) {
      if (!(error instanceof RateLimitedError)) throw error;
      throw new HostImportDeniedError(
        `rate limit of ${limit.calls} requests per ${limit.perMs} ms reached; retry in ${error.details.retryAfterMs} ms`,
      );
    }
  }

  private async httpRequest(request: GuestHttpRequest, call: HostCallContext): Promise<GuestHttpResponse> {
    const client = this.dependencies.httpClient;
    if (this.capabilities.httpAllowlist.length === 0 || !client)
      throw new HostImportDeniedError('http-request is not granted to this tool');
    let url: URL;
    try {
      url = new URL(request.url);
    } catch {
      throw new HostImportDeniedError(`invalid URL ${JSON.stringify(request.url.slice(0, 200))}`);
    }
    const allowed = findAllowEntry(this.capabilities.httpAllowlist, request.method, url);
    if ('reason' in allowed) throw new HostImportDeniedError(allowed.reason);
    if (
      request.body !== undefined &&
      Buffer.byteLength(request.body) > this.capabilities.httpMaxRequestBytes
    ) {
      throw new HostImportDeniedError(`request body above ${this.capabilities.httpMaxRequestBytes} bytes`);
    }
    this.checkRateLimit();

    const headers: Record<string, string> = {};
    for (const [name, value] of request.headers) {
      if (!STRIPPED_REQUEST_HEADERS.has(name.toLowerCase())) headers[name.toLowerCase()] = value;
    }
    // Scrub every secret this call could reach from what the guest gets back, not only the injected ones.
    const reachableSecrets: string[] = (
      await Promise.all(this.capabilities.secrets.map((name) => call.secrets.get(name)))
    ).filter((value): value is string => value !== undefined && value.length > 0);
    // What the guest wrote leaves Talon: no key format and no secret this call can reach, in any encoding.
    // Scanned before the host injects credentials, which are the only secrets allowed out.
    const findings = egressScanner.scan(
      { url: url.href, method: request.method, headers, body: request.body },
      { knownSecrets: reachableSecrets },
    );
    if (findings.length > 0) {
      const found = [...new Set(findings.map((finding) => `${finding.kind} in ${finding.part}`))].join(', ');
      throw new HostImportDeniedError(
        `SECRET_LEAK: the request carries a secret (${found}); credentials are injected by the host`,
      );
    }
    const secureEnough =
      url.protocol === 'https:' ||
      this.dependencies.allowCredentialsOverHttp === true ||
      LOOPBACK_HOSTS.has(url.hostname);
    for (const credential of this.capabilities.credentials) {
      if (!credential.host_patterns.some((pattern) => hostMatches(pattern, url))) continue;
      if (!secureEnough) {
        call.log('warn', 'credential not sent over plain http', {
          secret: credential.secret_name,
          host: url.host,
        });
        continue;
      }
      const value = await call.secrets.get(credential.secret_name);
      if (value === undefined) {
        call.log('warn', 'credential not granted to this call; request sent without it', {
          secret: credential.secret_name,
        });
        continue;
      }
      if (credential.location.kind === 'bearer') headers['authorization'] = `Bearer ${value}`;
      else if (credential.location.kind === 'header')
        headers[credential.location.name!.toLowerCase()] = value;
      else url.searchParams.set(credential.location.name!, value);
    }

    try {
      const response = await client.request({
        method: request.method.toUpperCase(),
        url: url.href,
        headers,
        body: request.body,
        maxResponseBytes: this.capabilities.httpMaxResponseBytes,
        timeoutMs: this.capabilities.httpTimeoutMs,
        signal: call.signal,
      });
      return {
        status: response.status,
        headers: Object.entries(response.headers).map(
          ([name, value]) => [name, scrub(value, reachableSecrets)] as [string, string],
        ),
        body: scrub(response.body, reachableSecrets),
      };
    } catch (error) {
      const message = TalonError.isInstance(error)
        ? `${error.code}: ${error.message}`
        : error instanceof Error
          ? error.message
          : String(error);
      throw new HostImportDeniedError(`request failed: ${scrub(message, reachableSecrets)}`);
    }
  }

  private async workspaceRead(path: string): Promise<string> {
    const root = this.dependencies.workspaceRoot;
    if (!root) throw new HostImportDeniedError('workspace-read is not available on this host');
    return readWorkspaceFile(
      root,
      this.capabilities.workspacePrefixes,
      path,
      this.capabilities.workspaceMaxReadBytes,
    );
  }

  private async toolInvoke(alias: string, paramsJson: string, call: HostCallContext): Promise<string> {
    const target = Object.hasOwn(this.capabilities.toolAliases, alias)
      ? this.capabilities.toolAliases[alias]
      : undefined;
    if (!target) throw new HostImportDeniedError(`tool alias "${alias}" is not declared`);
    const invoke = this.dependencies.invokeTool;
    if (!invoke) throw new HostImportDeniedError('tool-invoke is not available on this host');
    let params: unknown;
    try {
      params = JSON.parse(paramsJson);
    } catch {
      throw new HostImportDeniedError('params-json is not valid JSON');
    }
    if (typeof params !== 'object' || params === null || Array.isArray(params))
      throw new HostImportDeniedError('params-json must be a JSON object');
    const result = await invoke(target, params as Record<string, unknown>, call);
    return typeof result === 'string' ? result : JSON.stringify(result ?? null);
  }
}
