import { Module, type DynamicModule } from '@nestjs/common';
import type { NatsConnection } from '@nats-io/transport-node';
import type { Database } from '@talon/persistence';
import { NatsRequester, type JsonLogger } from '@talon/service-runtime';
import { agentProviders } from './agent/agent.providers.js';
import { AgentLifecycle } from './agent/agent-lifecycle.js';
import { ChatApi } from './agent/chat-api.js';
import { SessionsCancelMethod } from './agent/sessions-cancel.method.js';
import { TurnCancelResponder } from './agent/turn-cancel-responder.js';
import { ChatHttpController } from './agent/chat-http.controller.js';
import { SessionsApi } from './agent/sessions-api.js';
import { ApiRouter } from './api/api-router.js';
import { ApiAuthenticator } from './auth/api-authenticator.js';
import { OperatorTokenBootstrap } from './auth/operator-token-bootstrap.js';
import { SessionAccess } from './auth/session-access.js';
import { TokensApi } from './auth/tokens-api.js';
import { ToolInvokeController } from './tools/tool-invoke.controller.js';
import { autonomyProviders } from './autonomy/autonomy.providers.js';
import { AutonomyLifecycle } from './autonomy/autonomy-lifecycle.js';
import { JobsApi } from './autonomy/jobs-api.js';
import { ArtifactsApi } from './artifacts/artifacts-api.js';
import { RoutinesApi } from './autonomy/routines-api.js';
import { WebhookController } from './autonomy/webhook.controller.js';
import { GrpcApiController } from './api/grpc-api.controller.js';
import { GrpcTypedApiController } from './api/grpc-typed-api.controller.js';
import { SessionEventReplay } from './agent/session-event-replay.js';
import { HttpApiController } from './api/http-api.controller.js';
import { MetricsController } from './metrics/metrics.controller.js';
import {
  DATABASE,
  LOGGER,
  NATS_CONNECTION,
  NATS_REQUESTER,
  ORCHESTRATOR_CONFIG,
} from './config/orchestrator.constants.js';
import type { OrchestratorConfig } from './config/orchestrator-config.js';
import { mcpProviders } from './mcp/mcp.providers.js';
import { McpOAuthCallbackController } from './mcp/mcp-oauth-callback.controller.js';
import { handProviders } from './hands/hands.providers.js';
import { handRunProviders } from './hands/hand-run.providers.js';
import { reminderProviders } from './reminders/reminders.providers.js';
import { DatabaseLifecycle } from './persistence/database.provider.js';
import { ScheduleParseMethod } from './schedule/schedule-parse.method.js';
import { SecretsApi } from './secrets/secrets-api.js';
import { SKILLS_API_METHODS } from './skills/skills-api-methods.js';
import { SystemPingMethod } from './system/system-ping.method.js';
import { SystemStatusMethod } from './system/system-status.method.js';
import { toolProviders } from './tools/tools.providers.js';
import { ToolsCallMethod } from './tools/tools-call.method.js';
import { ToolsInfoMethod } from './tools/tools-info.method.js';
import { ToolsLifecycle } from './tools/tools-lifecycle.js';
import { ToolsListMethod } from './tools/tools-list.method.js';
import { WasmToolsApi } from './tools/wasm-tools-api.js';

/** Wires the orchestrator: API surfaces, the router and the methods behind it. */
@Module({})
export class OrchestratorModule {
  static register(
    config: OrchestratorConfig,
    connection: NatsConnection,
    logger: JsonLogger,
    database: Database,
  ): DynamicModule {
    return {
      module: OrchestratorModule,
      // ChatHttpController before HttpApiController, whose catch-all route answers unknown paths.
      controllers: [
        ToolInvokeController,
        ChatHttpController,
        McpOAuthCallbackController,
        WebhookController,
        MetricsController,
        HttpApiController,
        GrpcApiController,
        GrpcTypedApiController,
      ],
      providers: [
        { provide: ORCHESTRATOR_CONFIG, useValue: config },
        { provide: NATS_CONNECTION, useValue: connection },
        { provide: LOGGER, useValue: logger },
        { provide: DATABASE, useValue: database },
        DatabaseLifecycle,
        SessionEventReplay,
        { provide: NATS_REQUESTER, useValue: new NatsRequester(connection) },
        ApiRouter,
        ApiAuthenticator,
        SessionAccess,
        OperatorTokenBootstrap,
        TokensApi,
        SystemStatusMethod,
        SystemPingMethod,
        ...toolProviders(connection, logger, database, config.rateLimits, config.auditOutbox),
        ToolsLifecycle,
        ToolsListMethod,
        ToolsInfoMethod,
        ToolsCallMethod,
        WasmToolsApi,
        ...mcpProviders(connection),
        ...SKILLS_API_METHODS,
        ...agentProviders(config, connection, logger, database),
        AgentLifecycle,
        SessionsApi,
        ChatApi,
        SecretsApi,
        ...handProviders,
        ScheduleParseMethod,
        ...autonomyProviders(config, connection, logger, database),
        AutonomyLifecycle,
        JobsApi,
        ArtifactsApi,
        RoutinesApi,
        ...handRunProviders(config, database),
        ...reminderProviders(config, database),
        SessionsCancelMethod,
        TurnCancelResponder,
      ],
    };
  }
}
