import {
  createServer,
  request as httpRequest,
  type IncomingMessage,
  type Server,
  type ServerResponse,
} from 'node:http';
import { connect, type Socket } from 'node:net';
import { chmodSync } from 'node:fs';
import { hostMatchesPattern, LeakPolicy, type SsrfGuard, type CheckedTarget } from '@talon/safety';

/** Largest request body the proxy buffers for the leak scan (plain HTTP only). */
export const MAX_PROXIED_BODY_BYTES = 8 * 1024 * 1024;

/** One decision of the proxy, for the service log. */
export interface EgressDecision {
  method: string;
  target: string;
  allowed: boolean;
  reason?: string;
}

/** Options of an {@link EgressProxy}. */
export interface EgressProxyOptions {
  /** Hosts the sandbox may reach: exact names, `*.suffix`, optionally with `:port`. */
  hosts: readonly string[];
  /** The SSRF guard (with the operator's CIDR allowlist, if any). */
  guard: SsrfGuard;
  /** Called for every request and tunnel, allowed or not. */
  onDecision?: (decision: EgressDecision) => void;
}

const HOP_BY_HOP = new Set([
  'connection',
  'keep-alive',
  'proxy-connection',
  'proxy-authorization',
  'proxy-authenticate',
  'te',
  'trailer',
  'upgrade',
]);

/**
 * Talon's egress proxy for one sandbox, served on a Unix socket: plain HTTP requests in absolute form and
 * CONNECT tunnels. Every target must match the granted hosts, pass the SSRF guard (the connection goes to
 * the address the guard checked, never a second lookup) and the egress leak scan (URL, headers and, for
 * plain HTTP, the body; a tunnel's bytes are TLS and only its target is scanned). Anything else gets 403.
 */
export class EgressProxy {
  private readonly server: Server;
  private readonly leaks = new LeakPolicy();
  private readonly tunnels = new Set<Socket>();

  constructor(private readonly options: EgressProxyOptions) {
    this.server = createServer((request, response) => void this.forward(request, response));
    this.server.on(
      'connect',
      (request: IncomingMessage, client: Socket, head: Buffer) => void this.tunnel(request, client, head),
    );
  }

  /** Listens on `socketPath` (mode 0666 so the sandbox user can connect). */
  async listen(socketPath: string): Promise<void> {
    await new Promise<void>((resolvePromise, rejectPromise) => {
      this.server.once('error', rejectPromise);
      this.server.listen(socketPath, () => resolvePromise());
    });
    chmodSync(socketPath, 0o666);
  }

  async close(): Promise<void> {
    for (const socket of this.tunnels) socket.destroy();
    this.server.closeAllConnections();
    await new Promise<void>((resolvePromise) => this.server.close(() => resolvePromise()));
  }

  private async admit(method: string, url: URL, texts: readonly string[]): Promise<CheckedTarget> {
    const port = url.port === '' ? (url.protocol === 'https:' ? 443 : 80) : Number(url.port);
    if (!this.options.hosts.some((pattern) => hostMatchesPattern(url.hostname, port, pattern)))
      throw new Refusal(`host ${url.host} is not granted (granted: ${this.options.hosts.join(', ')})`);
    const target = await this.options.guard.check(url).catch((error: Error) => {
      throw new Refusal(error.message);
    });
    try {
      this.leaks.enforce(texts.join('\n'), 'egress');
    } catch (error) {
      throw new Refusal((error as Error).message);
    }
    this.options.onDecision?.({ method, target: url.host, allowed: true });
    return target;
  }

  private async forward(request: IncomingMessage, response: ServerResponse): Promise<void> {
    let url: URL;
    try {
      url = new URL(request.url ?? '');
    } catch {
      return this.refuse(
        response,
        request.method ?? '?',
        request.url ?? '',
        'not an absolute http:// URL',
        400,
      );
    }
    if (url.protocol !== 'http:')
      return this.refuse(
        response,
        request.method ?? '?',
        url.host,
        'only http:// is forwarded; https uses CONNECT',
      );
    try {
      const body = await readBody(request);
      const headers = Object.entries(request.headers).filter(([name]) => !HOP_BY_HOP.has(name));
      const texts = [
        url.toString(),
        ...headers.map(([name, value]) => `${name}: ${String(value)}`),
        body.toString('utf8'),
      ];
      const target = await this.admit(request.method ?? 'GET', url, texts);
      const upstream = httpRequest({
        host: target.address,
        family: target.family,
        port: target.port,
        method: request.method,
        path: `${url.pathname}${url.search}`,
        headers: { ...Object.fromEntries(headers), host: url.host, 'content-length': String(body.length) },
      });
      upstream.on('response', (reply) => {
        const replyHeaders = Object.fromEntries(
          Object.entries(reply.headers).filter(([name]) => !HOP_BY_HOP.has(name)),
        );
        response.writeHead(reply.statusCode ?? 502, replyHeaders);
        reply.pipe(response);
      });
      upstream.on('error', (error) => {
        if (!response.headersSent) this.refuse(response, request.method ?? '?', url.host, error.message, 502);
        else response.destroy();
      });
      upstream.end(body);
    } catch (error) {
      const status = error instanceof Refusal ? 403 : 400;
      this.refuse(response, request.method ?? '?', url.host, (error as Error).message, status);
    }
  }

  private async tunnel(request: IncomingMessage, client: Socket, head: Buffer): Promise<void> {
    const authority = request.url ?? '';
    client.on('error', () => client.destroy());
    try {
      const url = new URL(`https://${authority}/`);
      if (url.host !== authority.toLowerCase() && `${url.hostname}:443` !== authority.toLowerCase())
        throw new Refusal(`CONNECT target ${authority} is not host:port`);
      const headers = Object.entries(request.headers).map(([name, value]) => `${name}: ${String(value)}`);
      const target = await this.admit('CONNECT', url, [authority, ...headers]);
      const upstream = connect({ host: target.address, port: target.port, family: target.family });
      this.tunnels.add(upstream);
      this.tunnels.add(client);
      upstream.once('connect', () => {
        client.write('HTTP/1.1 200 Connection Established\r\n\r\n');
        if (head.length > 0) upstream.write(head);
        upstream.pipe(client).pipe(upstream);
      });
      const end = () => {
        upstream.destroy();
        client.destroy();
        this.tunnels.delete(upstream);
        this.tunnels.delete(client);
      };
      upstream.on('error', () => {
        if (!client.destroyed && upstream.connecting) client.end('HTTP/1.1 502 Bad Gateway\r\n\r\n');
        end();
      });
      upstream.on('close', end);
      client.on('close', end);
    } catch (error) {
      const reason = (error as Error).message;
      this.options.onDecision?.({ method: 'CONNECT', target: authority, allowed: false, reason });
      client.end(
        `HTTP/1.1 403 Forbidden\r\ncontent-type: text/plain\r\nconnection: close\r\n\r\nTalon egress proxy refused: ${reason}\n`,
      );
    }
  }

  private refuse(
    response: ServerResponse,
    method: string,
    target: string,
    reason: string,
    status = 403,
  ): void {
    this.options.onDecision?.({ method, target, allowed: false, reason });
    response.writeHead(status, { 'content-type': 'text/plain', connection: 'close' });
    response.end(`Talon egress proxy refused: ${reason}\n`);
  }
}

/** A request the policy refuses (403), as opposed to one that is malformed (400). */
class Refusal extends Error {}

async function readBody(request: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of request) {
    size += (chunk as Buffer).length;
    if (size > MAX_PROXIED_BODY_BYTES) throw new Refusal(`request body over ${MAX_PROXIED_BODY_BYTES} bytes`);
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks);
}
