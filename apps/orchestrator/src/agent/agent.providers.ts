import { randomBytes } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Provider } from '@nestjs/common';
import type { NatsConnection } from '@nats-io/transport-node';
import {
  ApprovalQueue,
  executeSkillToolDefinition,
  loadOrCreateSecretsKeyFile,
  PolicyEngine,
  SecretCipher,
  TurnLeaseKeeper,
  TurnRunner,
} from '@talon/agent';
import { ERROR_CODES } from '@talon/contracts';
import { TalonError } from '@talon/errors';
import { createLlmProvider, describeLlmConfig } from '@talon/llm';
import type { Database } from '@talon/persistence';
import { NatsRequester, type JsonLogger } from '@talon/service-runtime';
import type { CatalogWarmUp, Tool, ToolCatalog } from '@talon/tool-runtime';
import type { AuditLog } from '../audit/audit-log.js';
import {
  APPROVAL_QUEUE,
  AUDIT_LOG,
  CHAT_SERVICE,
  POLICY_GATE,
  SECRET_CIPHER,
  SECRET_STORE,
  CATALOG_WARM_UP,
  TOOL_CATALOG,
  TOOL_DISPATCHER,
  TURN_LEASES,
} from '../config/orchestrator.constants.js';
import type { OrchestratorConfig } from '../config/orchestrator-config.js';
import { SecretStore } from '../secrets/secret-store.js';
import { createSecretTools } from '../secrets/secret-tools.js';
import { loadInstallableTools } from '../skills/installable-tools.js';
import type { SkillServiceClient } from '../skills/skill-service-client.js';
import { SKILL_SERVICE_CLIENT } from '../skills/skills.constants.js';
import type { ToolDispatcher } from '../tools/tool-dispatcher.js';
import { CatalogToolSource } from './catalog-tool-source.js';
import { ChatService } from './chat-service.js';
import { LocalSkillAdvisor } from './local-skill-advisor.js';
import { SkillMcpStarter } from './skill-mcp-starter.js';
import type { McpControlClient } from '../mcp/mcp-control-client.js';
import { MCP_CONTROL_CLIENT } from '../mcp/mcp.constants.js';
import { PolicyGate } from './policy-gate.js';
import { DispatcherToolCaller } from './dispatcher-tool-caller.js';
import { WasmDeclaredSecrets } from './wasm-declared-secrets.js';
import { PrismaApprovalStore } from './prisma-approval-store.js';
import { CachedSessionGrants } from './cached-session-grants.js';
import { PrismaGrantStore } from './prisma-grant-store.js';
import { PrismaSessionStore } from './prisma-session-store.js';
import { PrismaToolCallClaimStore } from './prisma-tool-call-claim-store.js';
import { PrismaTurnLeaseStore } from './prisma-turn-lease-store.js';
import { UnconfiguredProvider } from './unconfigured-provider.js';

/** The secrets key from config, or a key file generated once in the state directory (development). */
function secretCipher(config: OrchestratorConfig, logger: JsonLogger): SecretCipher {
  if (config.secretsKey) return SecretCipher.fromConfig(config.secretsKey);
  mkdirSync(config.stateDir, { recursive: true });
  const file = join(config.stateDir, 'secrets.key');
  const { key, generated } = loadOrCreateSecretsKeyFile(file);
  if (generated)
    logger.write('warn', 'generated a secrets key file; set TALON_SECRETS_KEY in production', { file });
  return new SecretCipher(key);
}

/**
 * `execute_skill` in the catalog, so the model is offered it and no dynamic tool can take the name. The agent
 * loop runs it itself (a nested turn); called from anywhere else it is refused.
 */
function executeSkillTool(): Tool {
  return {
    definition: executeSkillToolDefinition(),
    execute: () =>
      Promise.reject(
        new TalonError(
          ERROR_CODES.POLICY_DENIED,
          'execute_skill runs a skill as a sub-task of a chat turn; ask for it in a chat message instead of calling it directly.',
        ),
      ),
  } as Tool;
}

/** Secrets, approvals, the agent loop and the chat service, wired to the catalog and the dispatcher. */
export function agentProviders(
  config: OrchestratorConfig,
  connection: NatsConnection,
  logger: JsonLogger,
  database: Database,
): Provider[] {
  const provider = createLlmProvider(config.llm, {
    onRetry: (attempt) => logger.write('warn', 'retrying the model call', { attempt }),
  });
  logger.write('info', 'model', { model: describeLlmConfig(config.llm) });
  const grants = new PrismaGrantStore(database);
  const approvals = new ApprovalQueue(new PrismaApprovalStore(database), grants, {
    timeoutMs: config.approvalTimeoutMs,
  });
  const cipher = secretCipher(config, logger);
  const secrets = new SecretStore(database.prisma, cipher);
  const policy = new PolicyEngine();
  // One owner per process: a restarted orchestrator (same instance id) is a new owner, and waits for
  // its predecessor's leases to expire like any other.
  const leases = new TurnLeaseKeeper(new PrismaTurnLeaseStore(database), {
    owner: `${config.instanceId}/${randomBytes(4).toString('hex')}`,
    leaseMs: config.turnLeaseMs,
    onTakeover: (sessionId, previousOwner) =>
      logger.write('warn', 'took over a turn whose owner stopped renewing its lease', {
        sessionId,
        previousOwner,
      }),
    onLost: (sessionId) =>
      logger.write('warn', 'lost the lease of a turn; another orchestrator finishes it', { sessionId }),
  });
  return [
    { provide: TURN_LEASES, useValue: leases },
    {
      provide: POLICY_GATE,
      inject: [TOOL_DISPATCHER],
      useFactory: (dispatcher: ToolDispatcher) =>
        new PolicyGate(dispatcher, policy, new CachedSessionGrants(grants, database.changeEpoch), approvals),
    },
    { provide: APPROVAL_QUEUE, useValue: approvals },
    { provide: SECRET_STORE, useValue: secrets },
    { provide: SECRET_CIPHER, useValue: cipher },
    {
      provide: CHAT_SERVICE,
      inject: [
        TOOL_CATALOG,
        CATALOG_WARM_UP,
        TOOL_DISPATCHER,
        AUDIT_LOG,
        SKILL_SERVICE_CLIENT,
        MCP_CONTROL_CLIENT,
      ],
      useFactory: (
        catalog: ToolCatalog,
        warmUp: CatalogWarmUp,
        dispatcher: ToolDispatcher,
        audit: AuditLog,
        skills: SkillServiceClient,
        mcpControl: McpControlClient,
      ) => {
        for (const tool of createSecretTools(secrets)) catalog.registerLocal(tool);
        catalog.registerLocal(executeSkillTool());
        const toolSource = new CatalogToolSource(catalog, warmUp);
        const installable = loadInstallableTools(config.toolRegistry);
        const runner = new TurnRunner(
          {
            provider: provider ?? new UnconfiguredProvider(),
            tools: toolSource,
            caller: new DispatcherToolCaller(
              dispatcher,
              secrets,
              new WasmDeclaredSecrets(catalog, new NatsRequester(connection)),
            ),
            sessions: new PrismaSessionStore(database),
            approvals,
            grants,
            policy,
            skills: new LocalSkillAdvisor(
              skills,
              toolSource,
              installable,
              new SkillMcpStarter(mcpControl, toolSource, installable, config.skillMcpAutostart),
            ),
            leases,
            claims: new PrismaToolCallClaimStore(database),
          },
          { maxIterations: config.maxIterations, skillTasks: config.skillTasks },
        );
        return new ChatService({
          runner,
          approvals,
          prisma: database.prisma,
          connection,
          catalog,
          skills,
          audit,
          logger,
          modelConfigured: provider !== undefined,
          mcp: mcpControl,
        });
      },
    },
  ];
}
