import { mkdirSync } from 'node:fs';
import { createDevTools } from '@talon/dev-tools';
import type { Sandbox } from '@talon/sandbox';
import type { Tool, ToolRegistry } from '@talon/tool-runtime';
import type { WasmRunnerConfig } from './wasm-runner-config.js';

/** Registers shell (in the sandbox) and the file tools, confined to the workspace root (created if missing). */
export function registerDevTools(registry: ToolRegistry, config: WasmRunnerConfig, sandbox: Sandbox): void {
  mkdirSync(config.workspaceDir, { recursive: true });
  for (const tool of createDevTools({ root: config.workspaceDir, sandbox }))
    registry.register(tool as unknown as Tool);
}
