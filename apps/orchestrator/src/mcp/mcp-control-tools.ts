import { DEFAULT_MCP_APPROVAL, DEFAULT_MCP_EFFECTS } from '@talon/mcp';
import type { McpResourceReadReply, McpToolOutput, ToolDefinition, ToolEffect } from '@talon/contracts';
import type { Tool } from '@talon/tool-runtime';
import { controlPlaneToolDefinition } from '../tools/control-plane-tool-definition.js';
import type { McpControlClient } from './mcp-control-client.js';
import type { McpToolCaller } from './mcp-tool-caller.js';

const SERVER_PARAMETERS = {
  type: 'object',
  properties: {
    server: {
      type: 'string',
      pattern: '^[a-zA-Z0-9][a-zA-Z0-9_-]{0,47}$',
      description: 'The MCP server name as configured',
    },
  },
  required: ['server'],
  additionalProperties: false,
};

/** MCP control tools ask no approval of their own and are never retried. */
function definition(
  name: string,
  description: string,
  parameters: Record<string, unknown>,
  effects: ToolEffect[],
  timeoutMs: number,
): ToolDefinition {
  return controlPlaneToolDefinition({
    name,
    description,
    parameters,
    effects,
    approval: 'never',
    timeoutMs,
    idempotent: false,
  });
}

/**
 * `mcp_start`, `mcp_stop`, `mcp_list`, `mcp_resource_read` and `mcp_call` as orchestrator-local tools, so their names exist
 * once whichever workers run. `mcp_call` asks no approval of its own: it dispatches the named tool, whose
 * own policy and approval then apply, so going through it is never looser than calling the tool directly.
 */
export function createMcpControlTools(control: McpControlClient, caller: McpToolCaller): Tool[] {
  return [
    {
      definition: definition(
        'mcp_start',
        'Start a configured MCP server and list its tools.',
        SERVER_PARAMETERS,
        ['spawn_process', 'network'],
        60_000,
      ),
      execute: async (params) => control.start(String(params.server)),
    },
    {
      definition: definition(
        'mcp_stop',
        'Stop a running MCP server (its tools stay listed; the next call starts it again).',
        SERVER_PARAMETERS,
        [],
        60_000,
      ),
      execute: async (params) => control.stop(String(params.server)),
    },
    {
      definition: {
        ...definition(
          'mcp_list',
          'List MCP servers with state, tool count, last error and restarts.',
          { type: 'object', properties: {}, additionalProperties: false },
          [],
          10_000,
        ),
        idempotent: true,
      },
      execute: async () => ({ servers: await control.list() }),
    },
    {
      // Read-only, but it reaches an MCP server like its tools do: the MCP default approval applies.
      definition: {
        ...definition(
          'mcp_resource_read',
          'Read one resource of an MCP server by URI (for example a resource link a tool returned).',
          {
            type: 'object',
            properties: {
              server: SERVER_PARAMETERS.properties.server,
              uri: { type: 'string', minLength: 1, maxLength: 4096, description: 'the resource URI' },
            },
            required: ['server', 'uri'],
            additionalProperties: false,
          },
          ['network'],
          60_000,
        ),
        approval: DEFAULT_MCP_APPROVAL,
      },
      execute: async (params): Promise<McpToolOutput> => {
        const read = await control.query<McpResourceReadReply>('resources.read', {
          server: String(params.server),
          uri: String(params.uri),
        });
        const text = read.contents
          .map((item) => (item.type === 'resource' ? item.text : undefined))
          .filter((part): part is string => typeof part === 'string')
          .join('\n\n');
        return { content: read.contents, text, isError: false };
      },
    },
    {
      definition: definition(
        'mcp_call',
        'Call an MCP tool by its name `server.tool` with arguments.',
        {
          type: 'object',
          properties: {
            tool: {
              type: 'string',
              pattern: '^[a-zA-Z0-9][a-zA-Z0-9_-]{0,47}\\..+$',
              description: '`server.tool`',
            },
            arguments: { type: 'object' },
          },
          required: ['tool'],
          additionalProperties: false,
        },
        [...DEFAULT_MCP_EFFECTS],
        120_000,
      ),
      execute: async (params, context) => {
        const reply = await caller.call(
          String(params.tool),
          (params.arguments as Record<string, unknown> | undefined) ?? {},
          {
            callId: `${context.callId}.mcp`,
            signal: context.signal,
            grants: context.grants,
            ...(context.sessionId ? { sessionId: context.sessionId } : {}),
            actor: context.sessionId ? `session:${context.sessionId}` : 'operator',
          },
        );
        return reply.output;
      },
    },
  ];
}
