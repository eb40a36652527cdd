import {
  toolBuildEventsSubject,
  ToolBuildRequestSchema,
  type ToolBuildReport,
  type ToolBuildRequest,
} from '@talon/contracts';
import type { Tool } from '@talon/tool-runtime';
import type { BuiltToolService } from '../tool-builder/built-tool-service.js';
import { extensionToolDefinition } from './extension-tool-definition.js';

/**
 * `tool_build`: asks the configured model to write a sandboxed tool, compiles it, runs its examples in the sandbox
 * and answers the build report (source, build log, example results, capabilities). Nothing is installed: a person
 * approves the report with `tool_build_install`. Always asks approval (it runs model-written code and costs tokens).
 * Its steps stream as events (the runner publishes them on `talon.events.v1.tool-build.<name>`).
 */
export function createToolBuildTool(built: BuiltToolService): Tool<ToolBuildRequest, ToolBuildReport> {
  return {
    definition: extensionToolDefinition({
      name: 'tool_build',
      description: `Builds a new sandboxed WebAssembly tool from a description and example calls: the model writes it, it is compiled and tested in the sandbox, and the report (source, capabilities, example results) is returned for a person to approve with tool_build_install. Build events: ${toolBuildEventsSubject('<name>')}.`,
      parameters: ToolBuildRequestSchema as unknown as Record<string, unknown>,
      effects: ['execute_code', 'modify_extension'],
      approval: 'always',
      idempotent: false,
      timeoutMs: 600_000,
    }),
    execute(params, context) {
      return built.build(params, { signal: context.signal });
    },
  };
}
