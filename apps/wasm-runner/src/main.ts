import 'reflect-metadata';
import type { Sandbox } from '@talon/sandbox';
import { bootstrapService, TOOL_HOST, toolCallHandler, type ToolHost } from '@talon/service-runtime';
import { startRunnerSandbox } from './sandbox/runner-sandbox.js';
import { parseWasmRunnerConfig } from './wasm-runner-config.js';
import { WasmRunnerModule } from './wasm-runner.module.js';

const config = parseWasmRunnerConfig();
let sandbox: Sandbox | undefined;
await bootstrapService({
  config,
  health: () => (sandbox ? { sandbox: sandbox.status } : {}),
  module: (connection, logger) => {
    sandbox = startRunnerSandbox(config, logger);
    return WasmRunnerModule.register(config, sandbox, connection, logger);
  },
  handlers: (app) => [toolCallHandler(app.get<ToolHost>(TOOL_HOST))],
});
