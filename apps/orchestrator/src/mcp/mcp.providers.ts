import type { Provider } from '@nestjs/common';
import type { NatsConnection } from '@nats-io/transport-node';
import type { ToolCatalog } from '@talon/tool-runtime';
import { TOOL_CATALOG, TOOL_DISPATCHER } from '../config/orchestrator.constants.js';
import type { ToolDispatcher } from '../tools/tool-dispatcher.js';
import { McpAuthorizationClient } from './mcp-authorization-client.js';
import { McpAuthorizeMethod } from './mcp-authorize.method.js';
import { McpCallMethod } from './mcp-call.method.js';
import { McpControlClient } from './mcp-control-client.js';
import { McpControlToolsRegistration } from './mcp-control-tools.registration.js';
import { McpListMethod } from './mcp-list.method.js';
import {
  McpPromptsGetMethod,
  McpPromptsListMethod,
  McpResourcesListMethod,
  McpResourcesReadMethod,
} from './mcp-resource-prompt.methods.js';
import { McpAddMethod } from './mcp-add.method.js';
import { McpRemoveMethod } from './mcp-remove.method.js';
import { McpSharedDefinitions } from './mcp-shared-definitions.js';
import { McpStartMethod } from './mcp-start.method.js';
import { McpSecretsLifecycle } from './mcp-secrets.lifecycle.js';
import { McpStopMethod } from './mcp-stop.method.js';
import { McpToolCaller } from './mcp-tool-caller.js';
import { MCP_AUTHORIZATION_CLIENT, MCP_CONTROL_CLIENT, MCP_TOOL_CALLER } from './mcp.constants.js';
import { TalonMcpEndpoint } from './talon-mcp-endpoint.js';

/** MCP in the orchestrator: control client, `mcp_*` tools, `mcp.*` methods and the `/mcp` endpoint. */
export function mcpProviders(connection: NatsConnection): Provider[] {
  return [
    { provide: MCP_CONTROL_CLIENT, useValue: new McpControlClient(connection) },
    {
      provide: MCP_TOOL_CALLER,
      inject: [TOOL_CATALOG, TOOL_DISPATCHER, MCP_CONTROL_CLIENT],
      useFactory: (catalog: ToolCatalog, dispatcher: ToolDispatcher, control: McpControlClient) =>
        new McpToolCaller(catalog, dispatcher, control),
    },
    McpControlToolsRegistration,
    McpStartMethod,
    McpStopMethod,
    McpListMethod,
    McpSharedDefinitions,
    McpAddMethod,
    McpRemoveMethod,
    McpCallMethod,
    McpResourcesListMethod,
    McpResourcesReadMethod,
    McpPromptsListMethod,
    McpPromptsGetMethod,
    TalonMcpEndpoint,
    // Remote servers' credentials (bearer, OAuth) and `mcp.authorize`.
    {
      provide: MCP_AUTHORIZATION_CLIENT,
      inject: [MCP_CONTROL_CLIENT],
      useFactory: (control: McpControlClient) => new McpAuthorizationClient(connection, control),
    },
    McpAuthorizeMethod,
    McpSecretsLifecycle,
  ];
}
