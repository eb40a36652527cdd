// Public API of @talon/wasm-host: sandboxed WebAssembly component tools (no Nest, no NATS).
export {
  CapabilitiesSchema,
  DEFAULT_LIMITS,
  parseCapabilities,
  type Capabilities,
  type CapabilitiesFile,
  type CredentialSpec,
  type HttpAllowEntry,
} from './capabilities.js';
export {
  ComponentCompiler,
  HOST_INTERFACE,
  checkImports,
  sha256Hex,
  type CompiledComponent,
  type ComponentCompilerOptions,
  type ImportPolicy,
} from './component-compiler.js';
export {
  ComponentToolLoader,
  type ComponentToolLoaderOptions,
  type ComponentToolSpec,
} from './component-tool-loader.js';
export type { LoadedComponent } from './component-worker-handle.js';
export {
  ComponentWorkerPool,
  defaultWorkerScript,
  type ComponentWorkerPoolOptions,
  type PoolCall,
  type PoolResult,
  type PoolStats,
} from './worker-pool.js';
export {
  HostImports,
  type HostCallContext,
  type HostImportsDependencies,
  type ToolInvoker,
} from './host-imports.js';
export type { HostHttpClient, HostHttpRequest, HostHttpResponse } from './host-http-client.js';
export { FetchHostHttpClient } from './fetch-host-http-client.js';
export { SafeFetchHostHttpClient } from './safe-fetch-host-http-client.js';
export { findAllowEntry, hostMatches } from './http-allowlist.js';
export { readWorkspaceFile } from './workspace-reader.js';
export type { SecretsProvider } from './secrets-provider.js';
export { GrantSecretsProvider } from './grant-secrets-provider.js';
export { StaticSecretsProvider } from './static-secrets-provider.js';
export { WasmTool, type WasmToolOptions, type WasmToolVersion } from './wasm-tool.js';
export { capModuleMemory, initialMemoryBytes } from './wasm-memory-limit.js';
export {
  BundlesFileSchema,
  RegistryEntrySchema,
  parseBundles,
  parseRegistryEntry,
  type RegistryEntry,
  type ToolBundle,
} from './registry-entry.js';
export {
  ToolPackageRegistry,
  type LocatedRegistryEntry,
  type RegistryProblem,
  type RegistrySearchHit,
} from './tool-package-registry.js';
export {
  InstalledToolsStore,
  InstalledToolRecordSchema,
  type InstalledToolRecord,
  type InstalledToolsState,
  type InstalledToolPutOptions,
} from './installed-tools-store.js';
export {
  SharedInstalledToolsState,
  type SharedInstalledToolsStateOptions,
} from './shared-installed-tools-state.js';
export {
  InstalledToolsFollower,
  type InstalledToolsChangeSource,
  type InstalledToolsFollowerReport,
} from './installed-tools-follower.js';
export { importFolderState } from './folder-state-import.js';
export {
  DEFAULT_MAX_ARTIFACT_BYTES,
  fetchArtifactDownloader,
  readArtifact,
  type ArtifactDownloader,
} from './artifact-source.js';
export {
  DEFAULT_ARTIFACT_DOWNLOAD_TIMEOUT_MS,
  safeFetchArtifactDownloader,
} from './safe-fetch-artifact-downloader.js';
export {
  ToolInstaller,
  type InstalledToolChange,
  type InstalledToolInfo,
  type ToolInstallerOptions,
} from './tool-installer.js';
export {
  SUPPORTED_WIT_VERSIONS,
  ToolVersionPreparer,
  type PreparedVersion,
  type ToolVersionPreparerOptions,
} from './tool-version-preparer.js';
export type { GuestHttpRequest, GuestHttpResponse, GuestLogLevel } from './worker-protocol.js';
export {
  ToolBuilder,
  BUILT_TOOL_WIT_VERSION,
  DEFAULT_BUILD_ROUNDS,
  type ToolBuilderOptions,
  type ToolBuildHooks,
} from './tool-builder/tool-builder.js';
export { BuiltToolsStore, type BuiltVersion } from './tool-builder/built-tools-store.js';
export {
  BuiltToolService,
  type BuiltToolInfo,
  type BuiltToolInstallResult,
} from './tool-builder/built-tool-service.js';
export { createToolBuildTool } from './extension-tools/tool-build-tool.js';
export { createToolBuildInstallTool } from './extension-tools/tool-build-install-tool.js';
export {
  compileInChildProcess,
  DEFAULT_COMPILE_TIMEOUT_MS,
  type CompileOutcome,
  type CompileProcessOptions,
} from './tool-builder/component-compile-process.js';
export {
  deriveCapabilities,
  readSourceNeeds,
  type DerivedCapabilities,
  type SourceNeeds,
} from './tool-builder/derived-capabilities.js';
export { expectationMismatch } from './tool-builder/example-expectation.js';
export { DEFAULT_MAX_SOURCE_BYTES, extractSource, sourceProblems } from './tool-builder/generated-source.js';
export { toolBuilderSystemPrompt } from './tool-builder/tool-builder-prompt.js';
export { BuildInProgressError } from './errors/build-in-progress-error.js';
export { ArtifactTooLargeError } from './errors/artifact-too-large-error.js';
export { CapabilitiesInvalidError } from './errors/capabilities-invalid-error.js';
export { ComponentLoadError } from './errors/component-load-error.js';
export { ForbiddenImportError } from './errors/forbidden-import-error.js';
export { HostImportDeniedError } from './errors/host-import-denied-error.js';
export { IntegrityMismatchError } from './errors/integrity-mismatch-error.js';
export { MemoryLimitError } from './errors/memory-limit-error.js';
export { OutputTooLargeError } from './errors/output-too-large-error.js';
export { PoolClosedError } from './errors/pool-closed-error.js';
export { RegistryEntryInvalidError } from './errors/registry-entry-invalid-error.js';
export { ToolAlreadyInstalledError } from './errors/tool-already-installed-error.js';
export { ToolNotInstalledError } from './errors/tool-not-installed-error.js';
export { ToolTrapError } from './errors/tool-trap-error.js';
export { createExtensionTools } from './extension-tools/extension-tools.js';
export { createToolSearchTool, type ToolSearchParams } from './extension-tools/tool-search-tool.js';
export { createToolInstallTool, type ToolInstallParams } from './extension-tools/tool-install-tool.js';
export { createToolListTool } from './extension-tools/tool-list-tool.js';
export { createToolUpgradeTool, type ToolUpgradeParams } from './extension-tools/tool-upgrade-tool.js';
export { createToolRemoveTool, type ToolRemoveParams } from './extension-tools/tool-remove-tool.js';
export {
  createExtensionInfoTool,
  type ExtensionInfo,
  type ExtensionInfoParams,
} from './extension-tools/extension-info-tool.js';
export type { InstalledToolSummary } from './extension-tools/installed-tool-summary.js';
