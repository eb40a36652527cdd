export {
  McpServerConfigSchema,
  McpAuthConfigSchema,
  StdioTransportConfigSchema,
  StreamableHttpTransportConfigSchema,
  SseTransportConfigSchema,
  parseMcpServerConfig,
  DEFAULT_MCP_EFFECTS,
  DEFAULT_MCP_APPROVAL,
  DEFAULT_MCP_CALL_TIMEOUT_MS,
  DEFAULT_MCP_CONNECT_TIMEOUT_MS,
  DEFAULT_MCP_IDLE_STOP_MS,
  DEFAULT_MCP_HEALTH_INTERVAL_MS,
  DEFAULT_MCP_RESTART,
  type McpServerConfig,
  type McpServerDefinition,
  type McpTransportConfig,
  type StdioTransportConfig,
  type RemoteTransportConfig,
  type McpAuthConfig,
  type McpRestartPolicy,
  type ParseMcpServerConfigOptions,
} from './mcp-server-config.js';
export {
  expandConfigVariables,
  standardConfigVariables,
  type ConfigVariables,
  type StandardVariableRoots,
} from './mcp-config-variables.js';
export { loadMcpServerRegistry, mergeMcpServerDefinitions } from './mcp-registry-loader.js';
export type { McpTransportHandle, RemoteTransportOptions } from './mcp-transport.js';
export { createStdioTransport } from './mcp-transport-stdio.js';
export { createStreamableHttpTransport } from './mcp-transport-streamable-http.js';
export { createSseTransport } from './mcp-transport-sse.js';
export {
  createMcpTransport,
  type McpNetworkOptions,
  type McpTransportFactoryOptions,
} from './mcp-transport-factory.js';
export {
  McpConnection,
  type McpConnectionOptions,
  type McpCallOptions,
  type McpToolInfo,
} from './mcp-connection.js';
export {
  McpManager,
  DEFAULT_MAX_RUNNING_STDIO,
  DEFAULT_IDLE_SWEEP_MS,
  type McpManagerOptions,
} from './mcp-manager.js';
export {
  MCP_SERVER_STATES,
  type McpServerState,
  type McpServerStatus,
  type McpServerListing,
} from './mcp-server-status.js';
export {
  assignMcpToolNames,
  mcpDisplayName,
  type McpToolNameRequest,
  type McpToolNames,
} from './mcp-tool-name.js';
export {
  adaptMcpTool,
  mcpToolApproval,
  type AdaptedMcpTool,
  type AdaptMcpToolInput,
  type McpToolCaller,
  type UnusableMcpTool,
} from './mcp-tool-adapter.js';
export {
  mapMcpToolResult,
  DEFAULT_MAX_INLINE_BINARY_BYTES,
  type McpContentItem,
  type McpToolOutput,
  type MapMcpToolResultOptions,
} from './mcp-result-mapper.js';
export {
  McpJsonSchemaCompiler,
  MAX_SCHEMA_BYTES,
  type SchemaCompileResult,
} from './mcp-json-schema-compiler.js';
export { InMemoryMcpSecretsStore, type McpSecretsStore } from './mcp-secrets-store.js';
export { McpConfigError } from './errors/mcp-config-error.js';
export { McpServerUnavailableError } from './errors/mcp-server-unavailable-error.js';
export { McpToolFailedError } from './errors/mcp-tool-failed-error.js';
export { McpTimeoutError } from './errors/mcp-timeout-error.js';
export { McpInvalidInputError } from './errors/mcp-invalid-input-error.js';
export { McpUnusableToolError } from './errors/mcp-unusable-tool-error.js';
export { McpUnknownServerError } from './errors/mcp-unknown-server-error.js';
export { McpUnknownToolError } from './errors/mcp-unknown-tool-error.js';
export { McpOAuthDiscoveryError } from './errors/mcp-oauth-discovery-error.js';
export { McpAuthorizationRequiredError } from './errors/mcp-authorization-required-error.js';
export {
  createTalonMcpServer,
  toMcpTool,
  toMcpResult,
  toMcpErrorResult,
  talonMcpToolResult,
  type TalonToolCatalog,
  type TalonToolCall,
  type TalonMcpCallContext,
  type TalonMcpServerOptions,
  type TalonMcpToolResult,
} from './talon-mcp-server.js';
export {
  createTalonMcpHttpHandler,
  DEFAULT_TALON_MCP_PATH,
  DEFAULT_MAX_MCP_SESSIONS,
  DEFAULT_MAX_MCP_BODY_BYTES,
  DEFAULT_MCP_SESSION_IDLE_MS,
  type TalonMcpHttpHandler,
  type TalonMcpHttpOptions,
} from './talon-mcp-http-handler.js';
export { serveTalonMcpOverStdio, type TalonMcpStdioServer } from './talon-mcp-stdio.js';
export { discoverMcpOAuthServer } from './mcp-oauth-discovery.js';
export {
  SecretsStoreOAuthProvider,
  type SecretsStoreOAuthProviderOptions,
} from './secrets-store-oauth-provider.js';
export { createMcpControlTools, type McpControlToolsOptions } from './mcp-control-tools.js';
export { syncMcpToolsIntoRegistry, type McpRegistryRefusal } from './mcp-registry-sync.js';
export { readMcpToolSnapshot, writeMcpToolSnapshot, type McpToolSnapshot } from './mcp-tool-snapshot-file.js';
export { loadMcpSourceDefinitions, type McpSourceDefinitionsOptions } from './mcp-source-definitions.js';
export { loadDeploymentMcpDefinitions } from './deployment-mcp-definitions.js';
export { startMcpToolSource, type McpToolSource, type McpToolSourceOptions } from './mcp-tool-source.js';
export { SharedMcpDefinitionWriter } from './shared-mcp-definition-writer.js';
export { McpFileDefinedServerError } from './errors/mcp-file-defined-server-error.js';
export { McpPlaintextSecretError } from './errors/mcp-plaintext-secret-error.js';
export { openSharedMcpBuckets, type SharedMcpBuckets } from './shared-mcp-buckets.js';
export { SharedMcpServersFollower, type SharedMcpStateOptions } from './shared-mcp-servers-follower.js';
export { McpServerNamesFollower, type McpServerNamesListener } from './mcp-server-names-follower.js';
export {
  effectiveMcpDefinitions,
  effectiveMcpServerNames,
  mcpDefinitionFingerprint,
  PLACEHOLDER_CONFIG_VARIABLES,
  type SharedMcpDefinitionRefusal,
} from './shared-mcp-definitions.js';
export { isMcpToolOutput, renderMcpOutputForModel, type McpModelContent } from './mcp-model-content.js';
export { checkPromptArguments, promptAsUserMessage, type PromptArgumentCheck } from './mcp-prompt-message.js';
export {
  capToolDescription,
  MAX_MCP_TOOL_DESCRIPTION_CHARS,
  DESCRIPTION_CUT_MARKER,
} from './mcp-tool-adapter.js';
export { McpCapabilityMissingError } from './errors/mcp-capability-missing-error.js';
export { mapResourceList, mapResourceRead, mapPromptList, mapPromptGet } from './mcp-resources-prompts.js';
