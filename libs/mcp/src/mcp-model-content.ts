import { createHash } from 'node:crypto';
import type { McpContentItem, McpToolOutput, ToolMedia } from '@talon/contracts';

/** True when a tool output has the shape of {@link McpToolOutput} (what MCP tools return). */
export function isMcpToolOutput(value: unknown): value is McpToolOutput {
  if (typeof value !== 'object' || value === null) return false;
  const candidate = value as Partial<McpToolOutput>;
  return (
    Array.isArray(candidate.content) &&
    typeof candidate.isError === 'boolean' &&
    candidate.content.every((item) => typeof item === 'object' && item !== null && 'type' in item)
  );
}

/** An MCP output as the model reads it: text once, every other item as a short line, media kept typed. */
export interface McpModelContent {
  text: string;
  media: ToolMedia[];
}

/**
 * Renders MCP content for the model without duplication: text items as they are; an embedded text resource
 * under a `[resource <uri>]` line; a resource link, an embedded binary resource and an image or audio item as
 * one placeholder line naming the MIME type, size and the sha256 artifact reference; images and audio with
 * their data also as typed media (given to the model as image input where the provider takes it); and
 * `structuredContent` as JSON unless a text item already carries exactly that JSON (the spec's advice for
 * servers). Unknown content types are named, not dropped.
 */
export function renderMcpOutputForModel(output: McpToolOutput): McpModelContent {
  const parts: string[] = [];
  const media: ToolMedia[] = [];
  for (const item of output.content) parts.push(renderItem(item, media));
  if (output.structuredContent !== undefined) {
    const json = JSON.stringify(output.structuredContent);
    const alreadyText = output.content.some(
      (item) => item.type === 'text' && sameJson(item.text, output.structuredContent),
    );
    if (!alreadyText) parts.push(`[structured content]\n${json}`);
  }
  return { text: parts.filter((part) => part.length > 0).join('\n\n'), media };
}

function renderItem(item: McpContentItem, media: ToolMedia[]): string {
  switch (item.type) {
    case 'text':
      return item.text;
    case 'image':
    case 'audio': {
      if (item.data === undefined)
        return `[${item.type}: ${item.mimeType}, ${item.dataBytes} bytes, not kept: over the inline cap]`;
      const sha256 = createHash('sha256').update(Buffer.from(item.data, 'base64')).digest('hex');
      media.push({
        type: item.type,
        mimeType: item.mimeType,
        data: item.data,
        sha256,
        bytes: item.dataBytes,
      });
      return `[${item.type}: ${item.mimeType}, ${item.dataBytes} bytes, artifact sha256:${sha256}]`;
    }
    case 'resource': {
      const mime = item.mimeType ? ` (${item.mimeType})` : '';
      if (item.text !== undefined) return `[resource ${item.uri}${mime}]\n${item.text}`;
      if (item.data !== undefined) {
        const sha256 = createHash('sha256').update(Buffer.from(item.data, 'base64')).digest('hex');
        return `[resource ${item.uri}${mime}: ${item.dataBytes ?? 0} bytes of binary data, artifact sha256:${sha256}]`;
      }
      return `[resource ${item.uri}${mime}${item.dataBytes !== undefined ? `: ${item.dataBytes} bytes, not kept: over the inline cap` : ''}]`;
    }
    case 'resource_link':
      return `[resource link: ${item.name} <${item.uri}>${item.mimeType ? ` ${item.mimeType}` : ''}${item.description ? ` — ${item.description}` : ''}; read it with mcp_resource_read]`;
    default:
      return `[content of type "${item.originalType}" that Talon does not read]`;
  }
}

function sameJson(text: string, value: unknown): boolean {
  try {
    return JSON.stringify(JSON.parse(text)) === JSON.stringify(value);
  } catch {
    return false;
  }
}
