import 'reflect-metadata';
import { bootstrapService, parseServiceConfig } from '@talon/service-runtime';
import { ToolWorkerModule } from './tool-worker.module.js';

const config = parseServiceConfig('tool-worker');
await bootstrapService({ config, module: (connection, logger) => ToolWorkerModule.register(config, connection, logger) });
