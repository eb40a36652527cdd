import 'reflect-metadata';
import { bootstrapService } from '@talon/service-runtime';
import { parseWasmRunnerConfig } from './wasm-runner-config.js';
import { WasmRunnerModule } from './wasm-runner.module.js';

const config = parseWasmRunnerConfig();
await bootstrapService({
  config,
  module: (connection, logger) => WasmRunnerModule.register(config, connection, logger),
});
