import 'reflect-metadata';
import { bootstrapService, TOOL_HOST, toolCallHandler, type ToolHost } from '@talon/service-runtime';
import { parseToolWorkerConfig } from './tool-worker-config.js';
import { ToolWorkerModule } from './tool-worker.module.js';

const config = parseToolWorkerConfig();
await bootstrapService({
  config,
  module: (connection, logger) => ToolWorkerModule.register(config, connection, logger),
  handlers: (app) => [toolCallHandler(app.get<ToolHost>(TOOL_HOST))],
});
