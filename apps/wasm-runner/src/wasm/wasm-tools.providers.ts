import { mkdirSync } from 'node:fs';
import type { Provider } from '@nestjs/common';
import type { NatsConnection } from '@nats-io/transport-node';
import { NatsRequester, type JsonLogger } from '@talon/service-runtime';
import type { Tool, ToolRegistry } from '@talon/tool-runtime';
import {
  ComponentCompiler,
  ComponentToolLoader,
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
        for (const tool of createExtensionTools(installer)) registry.register(tool as Tool);
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
