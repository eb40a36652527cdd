import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { McpContentItem, McpToolOutput } from '@talon/contracts';

/** Binary payloads (images, audio, blobs) up to this size are kept as base64; larger ones are summarised. */
export const DEFAULT_MAX_INLINE_BINARY_BYTES = 256 * 1024;

export type { McpContentItem, McpToolOutput };

/** Options of {@link mapMcpToolResult}. */
export interface MapMcpToolResultOptions {
  /** Default {@link DEFAULT_MAX_INLINE_BINARY_BYTES}; 0 never inlines binary data. */
  maxInlineBinaryBytes?: number;
}

/** Maps the SDK's `CallToolResult` to {@link McpToolOutput}. Unknown content types are named, not dropped silently. */
export function mapMcpToolResult(
  result: CallToolResult,
  options: MapMcpToolResultOptions = {},
): McpToolOutput {
  const cap = options.maxInlineBinaryBytes ?? DEFAULT_MAX_INLINE_BINARY_BYTES;
  const content = (Array.isArray(result.content) ? result.content : []).map((item) => mapItem(item, cap));
  const text = content
    .map((item) => (item.type === 'text' ? item.text : item.type === 'resource' ? item.text : undefined))
    .filter((part): part is string => typeof part === 'string' && part.length > 0)
    .join('\n\n');
  return {
    content,
    text,
    ...(isRecord(result.structuredContent) ? { structuredContent: result.structuredContent } : {}),
    isError: result.isError === true,
  };
}

function mapItem(item: CallToolResult['content'][number], cap: number): McpContentItem {
  switch (item.type) {
    case 'text':
      return { type: 'text', text: item.text };
    case 'image':
    case 'audio':
      return { type: item.type, mimeType: item.mimeType, ...binary(item.data, cap) };
    case 'resource': {
      const resource = item.resource;
      const base = {
        type: 'resource' as const,
        uri: resource.uri,
        ...(resource.mimeType ? { mimeType: resource.mimeType } : {}),
      };
      if ('text' in resource && typeof resource.text === 'string') return { ...base, text: resource.text };
      if ('blob' in resource && typeof resource.blob === 'string')
        return { ...base, ...binary(resource.blob, cap) };
      return base;
    }
    case 'resource_link':
      return {
        type: 'resource_link',
        uri: item.uri,
        name: item.name,
        ...(item.mimeType ? { mimeType: item.mimeType } : {}),
        ...(item.description ? { description: item.description } : {}),
      };
    default:
      return { type: 'unknown', originalType: String((item as { type?: unknown }).type) };
  }
}

function binary(base64: string, cap: number): { dataBytes: number; data?: string } {
  const dataBytes = Buffer.byteLength(base64, 'base64');
  return dataBytes <= cap ? { dataBytes, data: base64 } : { dataBytes };
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
