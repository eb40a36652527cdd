import http from 'node:http';
import https from 'node:https';
import type { LookupFunction } from 'node:net';
import { ResponseTooLargeError } from './errors/response-too-large-error.js';
import type { CheckedTarget } from './ssrf-guard.js';

/** One HTTP exchange, request side. */
export interface PinnedRequestInit {
  method: string;
  headers: Readonly<Record<string, string>>;
  body?: Uint8Array;
  signal: AbortSignal;
  maxBytes: number;
  /** How the URL appears in errors: without injected credentials. */
  label: string;
  /** CA certificates (PEM) trusted instead of Node's bundled roots; default: the bundled roots. */
  ca?: string | readonly string[];
}

/** One HTTP exchange, response side; the body is complete and within the byte cap. */
export interface PinnedResponse {
  status: number;
  headers: Record<string, string | string[]>;
  body: Buffer;
}

/**
 * A `lookup` for `net.connect` that answers with the address the guard checked and never asks DNS,
 * so the name cannot resolve to something else between the check and the connection.
 */
export function pinnedLookup(hostname: string, address: string, family: 4 | 6): LookupFunction {
  return (requested, options, callback) => {
    if (requested.toLowerCase().replace(/\.$/, '') !== hostname) {
      callback(
        Object.assign(new Error(`Pinned lookup refused an unexpected host ${requested}`), {
          code: 'ENOTFOUND',
        }),
        '',
        0,
      );
    } else if (options.all) {
      (callback as unknown as (error: null, addresses: { address: string; family: number }[]) => void)(null, [
        { address, family },
      ]);
    } else {
      callback(null, address, family);
    }
  };
}

/** What {@link openPinnedRequest} needs: the request side without the byte cap. */
export type PinnedStreamInit = Omit<PinnedRequestInit, 'maxBytes' | 'label' | 'signal'> & {
  signal?: AbortSignal;
};

/**
 * Opens one request to a checked target over a fresh connection (no pooled socket can point elsewhere),
 * connecting to the pinned address while keeping the original Host header and TLS server name, and
 * settles with the response as it starts arriving (its body still streaming).
 */
export function openPinnedRequest(
  target: CheckedTarget,
  init: PinnedStreamInit,
): Promise<http.IncomingMessage> {
  const { url } = target;
  const transport = url.protocol === 'https:' ? https : http;
  return new Promise<http.IncomingMessage>((resolve, reject) => {
    const request = transport.request({
      host: target.hostKind === 'name' ? target.hostname : target.address,
      port: target.port,
      path: `${url.pathname}${url.search}`,
      method: init.method,
      headers: { ...init.headers, host: url.host },
      agent: false,
      signal: init.signal,
      lookup: pinnedLookup(target.hostname, target.address, target.family),
      ...(target.hostKind === 'name' && url.protocol === 'https:' ? { servername: target.hostname } : {}),
      ...(init.ca !== undefined && url.protocol === 'https:'
        ? { ca: typeof init.ca === 'string' ? init.ca : [...init.ca] }
        : {}),
    });
    request.on('error', reject);
    request.on('response', resolve);
    request.end(init.body === undefined ? undefined : Buffer.from(init.body));
  });
}

/**
 * Sends one request to a checked target ({@link openPinnedRequest}) and reads the whole body, aborting
 * the exchange as soon as it passes `maxBytes`.
 */
export async function sendPinnedRequest(
  target: CheckedTarget,
  init: PinnedRequestInit,
): Promise<PinnedResponse> {
  const response = await openPinnedRequest(target, init);
  return new Promise<PinnedResponse>((resolve, reject) => {
    const fail = (error: Error) => {
      response.destroy();
      reject(error);
    };
    const declared = Number(response.headers['content-length']);
    if (Number.isFinite(declared) && declared > init.maxBytes) {
      fail(new ResponseTooLargeError(init.label, init.maxBytes));
      return;
    }
    const chunks: Buffer[] = [];
    let received = 0;
    response.on('data', (chunk: Buffer) => {
      received += chunk.length;
      if (received > init.maxBytes) fail(new ResponseTooLargeError(init.label, init.maxBytes));
      else chunks.push(chunk);
    });
    response.on('error', reject);
    response.on('end', () => {
      resolve({
        status: response.statusCode ?? 0,
        headers: collectHeaders(response.headers),
        body: Buffer.concat(chunks),
      });
    });
  });
}

function collectHeaders(headers: http.IncomingHttpHeaders): Record<string, string | string[]> {
  const result: Record<string, string | string[]> = {};
  for (const [name, value] of Object.entries(headers)) if (value !== undefined) result[name] = value;
  return result;
}
