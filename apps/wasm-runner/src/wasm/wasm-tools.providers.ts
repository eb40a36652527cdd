import { mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Provider } from '@nestjs/common';
import type { NatsConnection } from '@nats-io/transport-node';
import { SHARED_STATE_BUCKETS, toolBuildEventsSubject } from '@talon/contracts';
import { createLlmProvider, describeLlmConfig, parseLlmConfig } from '@talon/llm';
import { NatsRequester, TOOL_HOST, type JsonLogger, type ToolHost } from '@talon/service-runtime';
import { JetStreamArtifactBucket, JetStreamRecordBucket } from '@talon/shared-state';
import type { Tool, ToolRegistry } from '@talon/tool-runtime';
import {
  BuiltToolService,
  BuiltToolsStore,
  compileInChildProcess,
  ComponentCompiler,
  ComponentToolLoader,
  ToolBuilder,
  createExtensionTools,
  importFolderState,
  InstalledToolRecordSchema,
  InstalledToolsFollower,
  SharedInstalledToolsState,
  SafeFetchHostHttpClient,
  safeFetchArtifactDownloader,
  ToolPackageRegistry,
} from '@talon/wasm-host';
import type { WasmRunnerConfig } from '../wasm-runner-config.js';
import { DeclaredSecretsResponder } from './declared-secrets-responder.js';
import { InstalledToolsCatalogBridge } from './installed-tools-catalog-bridge.js';
import { RunnerToolInstaller } from './runner-tool-installer.js';
import { orchestratorToolInvoker } from './orchestrator-tool-invoker.js';
import { parseWasmToolsConfig } from './wasm-tools-config.js';
import { RegistryFolderWatcher } from './registry-folder-watcher.js';
import type { WasmToolsRuntime } from './wasm-tools-runtime.js';
import { DECLARED_SECRETS_RESPONDER, WASM_TOOLS_RUNTIME } from './wasm-tools.constants.js';
import { WasmToolsLifecycle } from './wasm-tools-lifecycle.js';

/**
 * The tool builder (`tool_build`, `tool_build_install`) when a model is configured (TALON_LLM_*, as for the
 * orchestrator): it writes tools with that model, compiles them in a child process, tests them in this runner's
 * sandbox, keeps them under `<stateDir>/wasm/built`, and publishes each step on `talon.events.v1.tool-build.<name>`.
 */
function toolBuilderService(
  wasm: ReturnType<typeof parseWasmToolsConfig>,
  loader: ComponentToolLoader,
  installer: RunnerToolInstaller,
  registry: ToolRegistry,
  connection: NatsConnection,
  logger: JsonLogger,
): BuiltToolService | undefined {
  const llm = parseLlmConfig(process.env);
  const model = createLlmProvider(llm);
  if (!model) {
    logger.write('info', 'tool builder off: no model configured (TALON_LLM_PROVIDER)');
    return undefined;
  }
  const store = new BuiltToolsStore(wasm.builtDir);
  const builder = new ToolBuilder({
    model,
    wit: readFileSync(wasm.witFile, 'utf8'),
    compile: (source) =>
      compileInChildProcess(source, { script: wasm.compileScript, timeoutMs: wasm.compileTimeoutMs }),
    loader,
    store,
    nameConflict: (name) => {
      if (registry.isProtected(name)) return 'protected';
      const source = registry.get(name)?.definition.source;
      return source !== undefined && source !== 'built' ? 'taken' : undefined;
    },
  });
  logger.write('info', 'tool builder on', { model: describeLlmConfig(llm) });
  return new BuiltToolService(builder, store, installer, (event) => {
    connection.publish(toolBuildEventsSubject(event.name), JSON.stringify(event));
    logger.write('info', 'tool build', { ...event });
  });
}

/**
 * Installed tools shared by every runner: records in the KV bucket `talon_wasm_tools`, artifacts in the
 * object store `talon_wasm_artifacts`, cached under `<installedDir>/artifacts`. Tools a runner installed in
 * its folder before (`installed-tools.json`) are moved into the shared state once.
 */
async function openSharedInstalledTools(
  connection: NatsConnection,
  installedDir: string,
  logger: JsonLogger,
): Promise<{
  state: SharedInstalledToolsState;
  records: JetStreamRecordBucket<typeof InstalledToolRecordSchema>;
}> {
  // The runner cannot start without its shared state: say why, with the code, before it exits.
  const refused = (error: Error & { code?: string }): never => {
    logger.write('error', error.message, { code: error.code });
    throw error;
  };
  const records = await JetStreamRecordBucket.open({
    connection,
    bucket: SHARED_STATE_BUCKETS.wasmTools,
    schema: InstalledToolRecordSchema,
    onInvalid: (key, reason) => logger.write('warn', 'shared tool record skipped', { key, reason }),
  }).catch(refused);
  const artifacts = await JetStreamArtifactBucket.open(connection, SHARED_STATE_BUCKETS.wasmArtifacts).catch(
    refused,
  );
  const state = await SharedInstalledToolsState.open({
    records,
    artifacts,
    cacheDir: join(installedDir, 'artifacts'),
  });
  const imported = await importFolderState(installedDir, state);
  if (imported.imported.length > 0 || imported.skipped.length > 0)
    logger.write('info', 'installed tools moved into the shared state', { ...imported });
  return { state, records };
}

/**
 * The wasm-runner's WebAssembly component tools: the extension tools (`tool_search`, `tool_install`,
 * `tool_list`, `tool_upgrade`, `tool_remove`, `extension_info`, built-in names), the tools installed on any
 * runner (the shared state in JetStream, followed live), and live install/upgrade/remove.
 * Component HTTP goes through the SSRF guard; workspace reads stay in the runner's workspace; credentials
 * come from each call's grants (the orchestrator asks which credentials a tool declares, on
 * `talon.wasm.v1.container.declared-secrets`); `tool-invoke` goes back through the orchestrator on `talon.tools.v1.invoke`.
 */
export function wasmToolProviders(
  config: WasmRunnerConfig,
  registry: ToolRegistry,
  connection: NatsConnection,
  logger: JsonLogger,
): Provider[] {
  return [
    {
      provide: WASM_TOOLS_RUNTIME,
      inject: [TOOL_HOST],
      useFactory: async (host: ToolHost): Promise<WasmToolsRuntime> => {
        const wasm = parseWasmToolsConfig(process.env, config.stateDir);
        mkdirSync(wasm.cacheDir, { recursive: true });
        mkdirSync(config.workspaceDir, { recursive: true });
        const compiler = new ComponentCompiler({ cacheDir: wasm.cacheDir });
        // jco loads in its thread while the rest starts, for installed tools not compiled here yet; idle, it stops.
        void compiler.warm();
        const loader = new ComponentToolLoader({
          compiler,
          // Lines the service's logger would drop never leave the component's worker thread.
          logLevel: config.logLevel,
          host: {
            httpClient: new SafeFetchHostHttpClient({ allowlist: wasm.ssrfAllowlist }),
            workspaceRoot: config.workspaceDir,
            invokeTool: orchestratorToolInvoker(new NatsRequester(connection)),
          },
        });
        const packages = await ToolPackageRegistry.open(wasm.registryDir);
        for (const problem of packages.problems)
          logger.write('warn', 'tool registry problem', { ...problem });
        const bridge = new InstalledToolsCatalogBridge(registry, logger);
        const shared = await openSharedInstalledTools(connection, wasm.installedDir, logger);
        const installer = new RunnerToolInstaller(
          {
            registry: packages,
            store: shared.state,
            loader,
            download: safeFetchArtifactDownloader({ allowlist: wasm.ssrfAllowlist }),
            onChange: bridge.apply,
          },
          registry,
        );
        const built = toolBuilderService(wasm, loader, installer, registry, connection, logger);
        for (const tool of createExtensionTools(installer, built)) registry.register(tool as Tool);
        // Followed before the first reconcile, so a change made meanwhile is not missed.
        const follower = new InstalledToolsFollower(installer, shared.state, (result) =>
          logger.write(result.failed.length > 0 ? 'warn' : 'info', 'shared installed tools followed', {
            ...result,
          }),
        );
        follower.start();
        // A call for a tool another runner has just installed waits for this one to load it.
        const stopCatchingUp = host.addMissingToolResolver((tool) => follower.catchUp(tool));
        const restored = await installer.restore();
        logger.write('info', 'wasm tools restored', { restored: restored.restored, failed: restored.failed });
        return {
          installer,
          registryWatcher: new RegistryFolderWatcher(wasm.registryDir, packages, logger),
          follower,
          stopCatchingUp,
          records: shared.records,
        };
      },
    },
    {
      provide: DECLARED_SECRETS_RESPONDER,
      inject: [WASM_TOOLS_RUNTIME],
      useFactory: (runtime: WasmToolsRuntime) => new DeclaredSecretsResponder(connection, runtime.installer),
    },
    WasmToolsLifecycle,
  ];
}
