import type { ToolDefinition } from '@talon/contracts';
import { safeFetch } from '@talon/safety';
import { ToolFailedError, type Tool, type ToolContext } from '@talon/tool-runtime';
import { htmlToText } from './html-to-text.js';
import {
  parseNetworkToolOptions,
  type NetworkToolConfig,
  type NetworkToolOptions,
} from './network-tool-options.js';
import { decodeBody, isTextual, mediaType } from './response-body-decoder.js';

/** Default number of characters of page text returned. */
export const DEFAULT_WEB_FETCH_MAX_CHARS = 20_000;
/** The most a call may ask for. */
export const MAX_WEB_FETCH_MAX_CHARS = 200_000;

/** Params of the `web_fetch` tool. */
export interface WebFetchParams {
  url: string;
  /** Default {@link DEFAULT_WEB_FETCH_MAX_CHARS}. */
  maxChars?: number;
}

/** A page as readable text. */
export interface WebFetchOutput {
  url: string;
  status: number;
  contentType: string;
  title: string;
  text: string;
  /** Length of the whole text before the cap. */
  totalChars: number;
  truncated: boolean;
}

const HTML_TYPES = new Set(['text/html', 'application/xhtml+xml']);

/**
 * The `web_fetch` tool: GET a public page under the SSRF guard and return its title and readable text
 * (scripts, styles and hidden elements dropped; headings and links kept), capped in length.
 * It sends no credentials.
 */
export class WebFetchTool implements Tool<WebFetchParams, WebFetchOutput> {
  readonly definition: ToolDefinition;
  private readonly config: NetworkToolConfig;

  constructor(options: NetworkToolOptions = {}) {
    this.config = parseNetworkToolOptions(options);
    this.definition = {
      name: 'web_fetch',
      description:
        'Fetch a public web page (http or https) and return its title and readable text, with headings as # lines and links as "text (url)". ' +
        'Private and loopback addresses are refused.',
      parameters: {
        type: 'object',
        properties: {
          url: {
            type: 'string',
            minLength: 1,
            maxLength: 8192,
            description: 'Absolute http or https URL of the page.',
          },
          maxChars: {
            type: 'integer',
            minimum: 100,
            maximum: MAX_WEB_FETCH_MAX_CHARS,
            default: DEFAULT_WEB_FETCH_MAX_CHARS,
            description: 'Most characters of text to return.',
          },
        },
        required: ['url'],
        additionalProperties: false,
      },
      effects: ['network'],
      approval: 'never',
      timeoutMs: this.config.timeoutMs,
      domain: 'orchestrator',
      source: 'builtin',
      sensitiveParams: [],
      idempotent: true,
    };
  }

  async execute(params: WebFetchParams, context: ToolContext): Promise<WebFetchOutput> {
    const maxChars = Math.min(params.maxChars ?? DEFAULT_WEB_FETCH_MAX_CHARS, MAX_WEB_FETCH_MAX_CHARS);
    // A URL is egress too: safeFetch's egress scan refuses a key or a granted secret in it, in any encoding.
    const response = await safeFetch(params.url, {
      egressScan: { knownSecrets: context.grants.map((grant) => grant.value) },
      guard: this.config.guard,
      headers: { accept: 'text/html,application/xhtml+xml,text/plain;q=0.9,*/*;q=0.5' },
      maxRedirects: this.config.maxRedirects,
      maxResponseBytes: this.config.maxResponseBytes,
      timeoutMs: this.config.timeoutMs,
      signal: context.signal,
    });
    const contentType = mediaType(response.headers['content-type']);
    if (!isTextual(contentType)) {
      throw new ToolFailedError(
        `${response.url} is ${contentType}, not a readable page. Use the http tool for other content.`,
        {
          details: { url: response.url, contentType },
        },
      );
    }
    const decoded = decodeBody(response.body, response.headers['content-type']);
    const page =
      HTML_TYPES.has(contentType) || (contentType === '' && /^\s*<(?:!doctype|html)/i.test(decoded))
        ? htmlToText(decoded, response.url)
        : { title: '', text: decoded.trim() };
    const truncated = page.text.length > maxChars;
    context.log('info', 'web_fetch done', {
      url: response.url,
      status: response.status,
      chars: page.text.length,
    });
    return {
      url: response.url,
      status: response.status,
      contentType,
      title: page.title,
      text: truncated
        ? `${page.text.slice(0, maxChars)}\n[truncated: ${page.text.length - maxChars} more characters]`
        : page.text,
      totalChars: page.text.length,
      truncated,
    };
  }
}

/** Builds the `web_fetch` tool with the worker's network options. */
export function createWebFetchTool(options: NetworkToolOptions = {}): WebFetchTool {
  return new WebFetchTool(options);
}
