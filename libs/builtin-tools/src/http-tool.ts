import type { ApprovalRequirement, ToolDefinition } from '@talon/contracts';
import { displayUrl, safeFetch, type SafeFetchResponse } from '@talon/safety';
import type { Tool, ToolContext } from '@talon/tool-runtime';
import { redactKnownSecrets } from './known-secret-redactor.js';
import {
  parseNetworkToolOptions,
  type NetworkToolConfig,
  type NetworkToolOptions,
} from './network-tool-options.js';
import { decodeBody, isTextual, mediaType } from './response-body-decoder.js';

/** HTTP methods the `http` tool sends. */
export const HTTP_TOOL_METHODS = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'] as const;
/** One of {@link HTTP_TOOL_METHODS}. */
export type HttpToolMethod = (typeof HTTP_TOOL_METHODS)[number];

/** Default cap on the body text returned to the model. */
export const DEFAULT_HTTP_TOOL_MAX_BODY_CHARS = 100_000;

/** Params of the `http` tool. */
export interface HttpToolParams {
  url: string;
  method?: HttpToolMethod;
  headers?: Record<string, string>;
  /** A raw request body. */
  body?: string;
  /** A JSON request body (sets `content-type: application/json` unless given). */
  json?: unknown;
}

/** What the `http` tool returns: the response with either `json` (parsed) or `body` (text). */
export interface HttpToolOutput {
  status: number;
  url: string;
  headers: Record<string, string>;
  body?: string;
  json?: unknown;
  bytes: number;
  truncated: boolean;
  redirects: string[];
}

/** Options of the `http` tool: the network options plus the cap on returned body text. */
export interface HttpToolOptions extends NetworkToolOptions {
  /** Default {@link DEFAULT_HTTP_TOOL_MAX_BODY_CHARS}. */
  maxBodyChars?: number;
}

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);
// Response headers that carry session state of their own; the model has no use for them.
const OMITTED_RESPONSE_HEADERS = new Set(['set-cookie', 'set-cookie2']);

/**
 * The `http` tool: one HTTP request under the SSRF guard. Credentials granted to the call are injected by
 * the host only into requests whose host matches the grant, never appear in the output, and a request
 * the model wrote that already contains a secret is refused.
 */
export class HttpTool implements Tool<HttpToolParams, HttpToolOutput> {
  readonly definition: ToolDefinition;
  private readonly config: NetworkToolConfig;
  private readonly maxBodyChars: number;

  constructor(options: HttpToolOptions = {}) {
    this.config = parseNetworkToolOptions(options);
    this.maxBodyChars = options.maxBodyChars ?? DEFAULT_HTTP_TOOL_MAX_BODY_CHARS;
    this.definition = {
      name: 'http',
      description:
        'Send an HTTP(S) request to a public URL and return status, headers and body (parsed JSON when the response is JSON). ' +
        'Private and loopback addresses are refused. Stored credentials are attached by the host to matching hosts; never put secrets in the request yourself.',
      parameters: {
        type: 'object',
        properties: {
          url: { type: 'string', minLength: 1, maxLength: 8192, description: 'Absolute http or https URL.' },
          method: { type: 'string', enum: [...HTTP_TOOL_METHODS], default: 'GET' },
          headers: {
            type: 'object',
            additionalProperties: { type: 'string', maxLength: 8192 },
            maxProperties: 64,
            description: 'Request headers.',
          },
          body: { type: 'string', maxLength: 1_000_000, description: 'Raw request body.' },
          json: { description: 'A JSON request body; use instead of body.' },
        },
        required: ['url'],
        additionalProperties: false,
        not: { required: ['body', 'json'] },
      },
      effects: ['network', 'use_secret', 'external_write'],
      approval: 'unless_auto_approved',
      timeoutMs: this.config.timeoutMs,
      domain: 'orchestrator',
      source: 'builtin',
      sensitiveParams: ['headers'],
      idempotent: false,
    };
  }

  /** Reading (GET, HEAD, OPTIONS) needs no approval; anything that may write does unless auto-approved. */
  approvalFor(params: HttpToolParams): ApprovalRequirement {
    return SAFE_METHODS.has((params.method ?? 'GET').toUpperCase()) ? 'never' : 'unless_auto_approved';
  }

  async execute(params: HttpToolParams, context: ToolContext): Promise<HttpToolOutput> {
    const method = (params.method ?? 'GET').toUpperCase();
    const headers: Record<string, string> = { ...params.headers };
    let body = params.body;
    if (params.json !== undefined) {
      body = JSON.stringify(params.json);
      if (!Object.keys(headers).some((name) => name.toLowerCase() === 'content-type'))
        headers['content-type'] = 'application/json';
    }
    const secrets = context.grants.map((grant) => grant.value);
    // What the model wrote goes out of Talon: safeFetch's egress scan refuses it when it carries a key or
    // a granted secret in any encoding (injected credentials are added after the scan).
    const response = await safeFetch(params.url, {
      guard: this.config.guard,
      method,
      headers,
      body,
      maxRedirects: this.config.maxRedirects,
      maxResponseBytes: this.config.maxResponseBytes,
      timeoutMs: this.config.timeoutMs,
      signal: context.signal,
      credentials: context.grants,
    });
    context.log('info', 'http request done', {
      method,
      url: displayUrl(params.url),
      status: response.status,
      redirects: response.redirects.length,
      credentials: response.usedSecretNames,
    });
    return redactKnownSecrets(this.toOutput(response), secrets);
  }

  private toOutput(response: SafeFetchResponse): HttpToolOutput {
    const headers: Record<string, string> = {};
    for (const [name, value] of Object.entries(response.headers)) {
      if (!OMITTED_RESPONSE_HEADERS.has(name))
        headers[name] = Array.isArray(value) ? value.join(', ') : value;
    }
    const output: HttpToolOutput = {
      status: response.status,
      url: response.url,
      headers,
      bytes: response.body.length,
      truncated: false,
      redirects: response.redirects,
    };
    if (response.body.length === 0) return output;
    const type = mediaType(response.headers['content-type']);
    if (!isTextual(type)) {
      output.body = `[${response.body.length} bytes of ${type} not shown]`;
      return output;
    }
    const text = decodeBody(response.body, response.headers['content-type']);
    if (type === 'application/json' || type.endsWith('+json')) {
      try {
        output.json = JSON.parse(text);
        if (text.length <= this.maxBodyChars) return output;
        delete output.json;
      } catch {
        // Not valid JSON after all: fall through and return the text.
      }
    }
    output.truncated = text.length > this.maxBodyChars;
    output.body = output.truncated
      ? `${text.slice(0, this.maxBodyChars)}\n[truncated: ${text.length - this.maxBodyChars} more characters]`
      : text;
    return output;
  }
}

/** Builds the `http` tool with the worker's network options. */
export function createHttpTool(options: HttpToolOptions = {}): HttpTool {
  return new HttpTool(options);
}
