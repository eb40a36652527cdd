import { mkdirSync, readFileSync } from 'node:fs';
import type { Provider } from '@nestjs/common';
import type { NatsConnection } from '@nats-io/transport-node';
import { toolBuildEventsSubject } from '@talon/contracts';
import { createLlmProvider, describeLlmConfig, parseLlmConfig } from '@talon/llm';
import { NatsRequester, type JsonLogger } from '@talon/service-runtime';
import type { Tool, ToolRegistry } from '@talon/tool-runtime';
import {
  BuiltToolService,
  BuiltToolsStore,
  compileInChildProcess,
  ComponentCompiler,
  ComponentToolLoader,
  ToolBuilder,
  createExtensionTools,
  InstalledToolsStore,
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
 * The wasm-runner's WebAssembly component tools: the extension tools (`tool_search`, `tool_install`,
 * `tool_list`, `tool_upgrade`, `tool_remove`, `extension_info`, built-in names), the tools installed
 * before a restart (restored from `<stateDir>/wasm/installed`), and live install/upgrade/remove.
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
      useFactory: async (): Promise<WasmToolsRuntime> => {
        const wasm = parseWasmToolsConfig(process.env, config.stateDir);
        mkdirSync(wasm.cacheDir, { recursive: true });
        mkdirSync(config.workspaceDir, { recursive: true });
        const loader = new ComponentToolLoader({
          compiler: new ComponentCompiler({ cacheDir: wasm.cacheDir }),
          host: {
            httpClient: new SafeFetchHostHttpClient({ allowlist: wasm.ssrfAllowlist }),
            workspaceRoot: config.workspaceDir,
            invokeTool: orchestratorToolInvoker(new NatsRequester(connection)),
          },
        });
        const packages = await ToolPackageRegistry.open(wasm.registryDir);
        for (const problem of packages.problems)
          logger.write('warn', 'tool registry entry skipped', { ...problem });
        const bridge = new InstalledToolsCatalogBridge(registry, logger);
        const installer = new RunnerToolInstaller(
          {
            registry: packages,
            store: await InstalledToolsStore.open(wasm.installedDir),
            loader,
            download: safeFetchArtifactDownloader({ allowlist: wasm.ssrfAllowlist }),
            onChange: bridge.apply,
          },
          registry,
        );
        const built = toolBuilderService(wasm, loader, installer, registry, connection, logger);
        for (const tool of createExtensionTools(installer, built)) registry.register(tool as Tool);
        const restored = await installer.restore();
        logger.write('info', 'wasm tools restored', { restored: restored.restored, failed: restored.failed });
        return { installer, registryWatcher: new RegistryFolderWatcher(wasm.registryDir, packages, logger) };
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
