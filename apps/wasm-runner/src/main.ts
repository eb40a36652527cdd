import 'reflect-metadata';
import { bootstrapService, parseServiceConfig } from '@talon/service-runtime';
import { WasmRunnerModule } from './wasm-runner.module.js';

const config = parseServiceConfig('wasm-runner');
await bootstrapService({ config, module: (connection, logger) => WasmRunnerModule.register(config, connection, logger) });
