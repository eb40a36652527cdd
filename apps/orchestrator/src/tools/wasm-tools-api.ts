import { Inject, Injectable, type OnModuleInit } from '@nestjs/common';
import type { TSchema } from '@sinclair/typebox';
import {
  type ApiScope,
  ToolBuildInstallRequestSchema,
  ToolBuildRequestSchema,
  ToolPackageRequestSchema,
  ToolsInstallRequestSchema,
  ToolsInstalledRequestSchema,
  ToolsSearchRequestSchema,
  ToolsUpgradeRequestSchema,
} from '@talon/contracts';
import { ApiRouter } from '../api/api-router.js';
import type { ApiCallContext } from '../api/api-method.js';
import { TOOL_DISPATCHER } from '../config/orchestrator.constants.js';
import type { ToolDispatcher } from './tool-dispatcher.js';

/** Each lifecycle method and the wasm-runner extension tool it runs. */
const WASM_TOOL_METHODS: readonly {
  name: string;
  scope: ApiScope;
  tool: string;
  request: TSchema;
  description: string;
}[] = [
  {
    name: 'tools.search',
    scope: 'read',
    tool: 'tool_search',
    request: ToolsSearchRequestSchema,
    description: 'Searches the WebAssembly tool registry by keywords (runs tool_search).',
  },
  {
    name: 'tools.install',
    scope: 'operator',
    tool: 'tool_install',
    request: ToolsInstallRequestSchema,
    description:
      'Installs a WebAssembly tool or bundle from the registry after checking sha256, WIT version and imports; callable at once (runs tool_install).',
  },
  {
    name: 'tools.upgrade',
    scope: 'operator',
    tool: 'tool_upgrade',
    request: ToolsUpgradeRequestSchema,
    description:
      'Moves an installed WebAssembly tool to the registry version (a built tool: to its newest approved version, or to `version` to roll back); calls in flight finish on the old one (runs tool_upgrade).',
  },
  {
    name: 'tools.remove',
    scope: 'operator',
    tool: 'tool_remove',
    request: ToolPackageRequestSchema,
    description: 'Uninstalls a WebAssembly tool; it leaves the catalog (runs tool_remove).',
  },
  {
    name: 'tools.build',
    scope: 'operator',
    tool: 'tool_build',
    request: ToolBuildRequestSchema,
    description:
      'Builds a sandboxed WebAssembly tool from a description and examples with the configured model; answers the build report (source, log, example results, capabilities) for a person to approve. Nothing is installed (runs tool_build).',
  },
  {
    name: 'tools.installBuild',
    scope: 'operator',
    tool: 'tool_build_install',
    request: ToolBuildInstallRequestSchema,
    description:
      "Installs a ready build hot after a person approved it: build_id, sha256 and capabilities exactly as in the build's report (runs tool_build_install).",
  },
  {
    name: 'tools.installed',
    scope: 'read',
    tool: 'tool_list',
    request: ToolsInstalledRequestSchema,
    description: 'Lists the installed WebAssembly tools (runs tool_list).',
  },
  {
    name: 'extensions.info',
    scope: 'read',
    tool: 'extension_info',
    request: ToolPackageRequestSchema,
    description:
      'An installed WebAssembly tool next to its registry entry: versions, credentials, upgrade available (runs extension_info).',
  },
];

/**
 * `tools.search`, `tools.install`, `tools.upgrade`, `tools.remove`, `tools.installed`, `extensions.info`:
 * one implementation, the wasm-runner's extension tools, reached through the dispatcher like `tools.call`
 * (validation, dispatch, output safety, audit as `operator:<surface>`). Each answers with the tool's output.
 */
@Injectable()
export class WasmToolsApi implements OnModuleInit {
  constructor(
    private readonly router: ApiRouter,
    @Inject(TOOL_DISPATCHER) private readonly dispatcher: ToolDispatcher,
  ) {}

  onModuleInit(): void {
    for (const method of WASM_TOOL_METHODS) {
      this.router.register({
        name: method.name,
        description: method.description,
        scope: method.scope,
        request: method.request,
        handle: async (request: Record<string, unknown>, context: ApiCallContext): Promise<unknown> => {
          const reply = await this.dispatcher.call({
            tool: method.tool,
            params: request,
            callId: context.callId,
            actor: `operator:${context.surface}`,
          });
          return reply.output;
        },
      });
    }
  }
}
