import type { Provider } from '@nestjs/common';
import type { Database } from '@talon/persistence';
import type { ToolCatalog } from '@talon/tool-runtime';
import type { ChatService } from '../agent/chat-service.js';
import { JOB_ACTION_HANDLERS, JOB_SERVICE } from '../autonomy/autonomy.constants.js';
import type { JobActionHandlers } from '../autonomy/job-action-handlers.js';
import type { JobService } from '../autonomy/job-service.js';
import { CHAT_SERVICE, HAND_CATALOG, TOOL_CATALOG } from '../config/orchestrator.constants.js';
import type { OrchestratorConfig } from '../config/orchestrator-config.js';
import type { McpControlClient } from '../mcp/mcp-control-client.js';
import { MCP_CONTROL_CLIENT } from '../mcp/mcp.constants.js';
import type { HandCatalog } from './hand-catalog.js';
import { HandInstanceService } from './hand-instance-service.js';
import { createHandJobHandler } from './hand-job-handler.js';
import { HandMcpServers } from './hand-mcp-servers.js';
import { HandRunService } from './hand-run-service.js';
import { createHandTools } from './hand-tools.js';
import { HAND_INSTANCE_SERVICE, HAND_RUN_SERVICE, HAND_TOOLS } from './hands.constants.js';
import { HandsLifecycle } from './hands-lifecycle.js';
import { HandsRunApi } from './hands-run-api.js';

/** Hand instances and runs on top of jobs: the `hand` job action, the hands.* run methods and the model's tools. */
export function handRunProviders(config: OrchestratorConfig, database: Database): Provider[] {
  return [
    {
      provide: HAND_INSTANCE_SERVICE,
      inject: [HAND_CATALOG],
      useFactory: (catalog: HandCatalog) => new HandInstanceService(database.prisma, catalog),
    },
    {
      provide: HAND_RUN_SERVICE,
      inject: [
        HAND_CATALOG,
        TOOL_CATALOG,
        HAND_INSTANCE_SERVICE,
        JOB_SERVICE,
        JOB_ACTION_HANDLERS,
        CHAT_SERVICE,
        MCP_CONTROL_CLIENT,
      ],
      useFactory: (
        catalog: HandCatalog,
        tools: ToolCatalog,
        instances: HandInstanceService,
        jobs: JobService,
        handlers: JobActionHandlers,
        chat: ChatService,
        mcp: McpControlClient,
      ) => {
        const runs = new HandRunService(database.prisma, catalog, instances, jobs, {
          approvalTimeoutMs: config.approvalTimeoutMs,
        });
        // A hand's MCP servers wait as long as a skill's (TALON_SKILL_MCP_START_WAIT_MS).
        const servers = new HandMcpServers(mcp, tools, config.skillMcpAutostart.waitMs);
        handlers.register('hand', createHandJobHandler(chat, catalog, database.prisma, runs, servers));
        return runs;
      },
    },
    {
      provide: HAND_TOOLS,
      inject: [TOOL_CATALOG, HAND_CATALOG, HAND_RUN_SERVICE],
      useFactory: (tools: ToolCatalog, catalog: HandCatalog, runs: HandRunService) => {
        const created = createHandTools(catalog, runs);
        for (const tool of created) tools.registerLocal(tool);
        return created;
      },
    },
    HandsRunApi,
    HandsLifecycle,
  ];
}
