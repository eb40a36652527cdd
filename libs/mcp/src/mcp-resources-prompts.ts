import type {
  GetPromptResult,
  ListPromptsResult,
  ListResourcesResult,
  ReadResourceResult,
} from '@modelcontextprotocol/sdk/types.js';
import type {
  McpContentItem,
  McpPromptGetReply,
  McpPromptListReply,
  McpResourceListReply,
  McpResourceReadReply,
} from '@talon/contracts';
import { mapMcpToolResult, type MapMcpToolResultOptions } from './mcp-result-mapper.js';

/** A server's resource page as Talon lists it. */
export function mapResourceList(server: string, result: ListResourcesResult): McpResourceListReply {
  return {
    server,
    resources: result.resources.map((resource) => ({
      uri: resource.uri,
      name: resource.name,
      ...(resource.title ? { title: resource.title } : {}),
      ...(resource.description ? { description: resource.description } : {}),
      ...(resource.mimeType ? { mimeType: resource.mimeType } : {}),
      ...(typeof resource.size === 'number' ? { size: resource.size } : {}),
    })),
    ...(result.nextCursor ? { nextCursor: result.nextCursor } : {}),
  };
}

/** Read contents as `resource` items, binary under the inline cap kept as base64 (same rules as tool content). */
export function mapResourceRead(
  server: string,
  uri: string,
  result: ReadResourceResult,
  options: MapMcpToolResultOptions = {},
): McpResourceReadReply {
  const contents = mapMcpToolResult(
    { content: result.contents.map((resource) => ({ type: 'resource' as const, resource })) },
    options,
  ).content;
  return { server, uri, contents };
}

/** A server's prompt page as Talon lists it. */
export function mapPromptList(server: string, result: ListPromptsResult): McpPromptListReply {
  return {
    server,
    prompts: result.prompts.map((prompt) => ({
      name: prompt.name,
      ...(prompt.title ? { title: prompt.title } : {}),
      ...(prompt.description ? { description: prompt.description } : {}),
      arguments: (prompt.arguments ?? []).map((argument) => ({
        name: argument.name,
        ...(argument.description ? { description: argument.description } : {}),
        required: argument.required === true,
      })),
    })),
    ...(result.nextCursor ? { nextCursor: result.nextCursor } : {}),
  };
}

/** A rendered prompt: each message's content mapped like tool content. */
export function mapPromptGet(
  server: string,
  name: string,
  result: GetPromptResult,
  options: MapMcpToolResultOptions = {},
): McpPromptGetReply {
  return {
    server,
    name,
    ...(result.description ? { description: result.description } : {}),
    messages: result.messages.map((message) => ({
      role: message.role,
      content: mapMcpToolResult({ content: [message.content] }, options).content[0] as McpContentItem,
    })),
  };
}
