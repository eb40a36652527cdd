import type { NatsConnection } from '@nats-io/transport-node';
import {
  isSlashCommand,
  parseSlashCommand,
  slashCommandHelp,
  type AgentEvent,
  type ApprovalQueue,
  type SlashCommand,
  type TurnResult,
  type TurnRunner,
} from '@talon/agent';
import { ERROR_CODES, SUBJECTS, type ChatEvent, type ChatSendReply } from '@talon/contracts';
import { TalonError, toWireError } from '@talon/errors';
import type { PrismaClient } from '@talon/persistence';
import { encodeJson, type JsonLogger } from '@talon/service-runtime';
import type { ToolCatalog } from '@talon/tool-runtime';
import type { AuditLog } from '../audit/audit-log.js';
import type { SkillServiceClient } from '../skills/skill-service-client.js';
import { CONFIGURE_MODEL_HINT } from './unconfigured-provider.js';

/** Receives each event of a turn (SSE and gRPC streams); NATS gets them on the session subject. */
export type ChatEventSink = (event: ChatEvent) => void;

/** What the chat service needs. */
export interface ChatServiceDeps {
  runner: TurnRunner;
  approvals: ApprovalQueue;
  prisma: PrismaClient;
  connection: NatsConnection;
  catalog: ToolCatalog;
  skills: SkillServiceClient;
  audit: AuditLog;
  logger: JsonLogger;
  modelConfigured: boolean;
}

/**
 * One user message, end to end: slash commands are answered here (they work with no model), anything
 * else runs a turn of the agent loop. Every event is published on `talon.events.v1.session.<id>` and
 * handed to the caller's sink; policy refusals and approval decisions are audited.
 */
export class ChatService {
  /** Whether each known session is autonomous: fixed at creation, so it is read once. */
  private readonly autonomy = new Map<string, boolean>();

  constructor(private readonly deps: ChatServiceDeps) {}

  private async sessionAutonomy(sessionId: string): Promise<boolean> {
    const known = this.autonomy.get(sessionId);
    if (known !== undefined) return known;
    const session = await this.deps.prisma.session.findUnique({
      where: { id: sessionId },
      select: { autonomous: true },
    });
    if (!session)
      throw new TalonError(
        ERROR_CODES.NOT_FOUND,
        `No session ${sessionId}; create one with sessions.create.`,
        { details: { sessionId } },
      );
    if (this.autonomy.size >= 10_000) this.autonomy.delete(this.autonomy.keys().next().value!);
    this.autonomy.set(sessionId, session.autonomous);
    return session.autonomous;
  }

  async send(
    sessionId: string,
    message: string,
    sink?: ChatEventSink,
    signal?: AbortSignal,
  ): Promise<ChatSendReply> {
    const session = { autonomous: await this.sessionAutonomy(sessionId) };
    const emit = this.emitter(sessionId, sink);
    if (isSlashCommand(message)) {
      const command = builtinCommand(message);
      if (command) return this.command(sessionId, command, session.autonomous, emit, signal);
      // `/review …` and `/<skill-name> …` are skill mentions: the turn runs and selection activates the skill.
      if (!(await this.isSkillCommand(message)))
        throw new TalonError(ERROR_CODES.UNKNOWN_METHOD, `Not a command. ${slashCommandHelp()}`);
    }
    const result = await this.deps.runner.run({
      sessionId,
      message,
      autonomous: session.autonomous,
      actor: 'model',
      signal,
      onEvent: emit,
    });
    return toReply(result);
  }

  /** Whether `/word` names a skill's command trigger or a skill (both activate that skill in selection). */
  private async isSkillCommand(message: string): Promise<boolean> {
    const word = /^\/([A-Za-z0-9][\w-]*)/.exec(message.trim())?.[1];
    if (!word) return false;
    try {
      const [triggers, listing] = await Promise.all([this.deps.skills.triggers(), this.deps.skills.list({})]);
      const names = new Set(listing.skills.map((skill) => skill.name));
      return triggers.commands.some((entry) => entry.command.replace(/^\//, '') === word) || names.has(word);
    } catch {
      return false;
    }
  }

  /** Continues a turn that was waiting (approvals) when the orchestrator stopped. */
  async resume(sessionId: string): Promise<TurnResult | undefined> {
    const session = await this.deps.prisma.session.findUnique({ where: { id: sessionId } });
    if (!session || this.deps.runner.isBusy(sessionId)) return undefined;
    return this.deps.runner.resumeTurn(sessionId, {
      autonomous: session.autonomous,
      onEvent: this.emitter(sessionId),
    });
  }

  private async command(
    sessionId: string,
    command: SlashCommand,
    autonomous: boolean,
    emit: (event: AgentEvent | ChatEvent) => void,
    signal?: AbortSignal,
  ): Promise<ChatSendReply> {
    const started = performance.now();
    let result: unknown;
    switch (command.kind) {
      case 'help':
        result = {
          help: slashCommandHelp(),
          model: this.deps.modelConfigured ? 'configured' : CONFIGURE_MODEL_HINT,
        };
        break;
      case 'tools':
        result = {
          tools: this.deps.catalog.list().map((entry) => ({
            name: entry.definition.name,
            description: entry.definition.description,
            approval: entry.definition.approval,
            effects: entry.definition.effects,
          })),
        };
        break;
      case 'skills':
        result = await this.deps.skills.list({});
        break;
      case 'call': {
        const outcome = await this.deps.runner.callTool({
          sessionId,
          tool: command.tool,
          params: command.params,
          actor: 'operator',
          autonomous,
          signal,
          onEvent: emit,
        });
        result = outcome;
        break;
      }
      case 'skill': {
        if (!this.deps.modelConfigured) {
          result = {
            skill: command.name,
            selection: await this.deps.skills.select(`$${command.name} ${command.message}`),
            note: CONFIGURE_MODEL_HINT,
          };
          break;
        }
        const turn = await this.deps.runner.run({
          sessionId,
          message: command.message,
          mentionSkills: [command.name],
          autonomous,
          signal,
          onEvent: emit,
        });
        return toReply(turn);
      }
    }
    emit({ type: 'command_result', sessionId, command: command.kind, result });
    const totalMs = performance.now() - started;
    return {
      sessionId,
      turnId: '',
      reason: 'command',
      iterations: 0,
      usage: { inputTokens: 0, outputTokens: 0 },
      timings: { totalMs, modelMs: 0, toolMs: 0, overheadMs: totalMs },
      command: result,
    };
  }

  private emitter(sessionId: string, sink?: ChatEventSink): (event: AgentEvent | ChatEvent) => void {
    const subject = SUBJECTS.sessionEvents(sessionId);
    return (event) => {
      const wire = { ...event, sessionId } as ChatEvent;
      this.deps.connection.publish(subject, encodeJson(wire));
      this.auditEvent(wire);
      try {
        sink?.(wire);
      } catch (error) {
        this.deps.logger.write('warn', 'chat event sink failed', { error: String(error) });
      }
    };
  }

  /** Policy refusals and approval decisions go to the audit chain (tool calls are audited by the dispatcher). */
  private auditEvent(event: ChatEvent): void {
    const record = event as Record<string, unknown>;
    if (event.type === 'approval_requested') {
      // The reason carries why the tool asks and every program the call runs (a shell command line).
      void this.deps.audit.append({
        kind: 'approval.request',
        actor: 'policy',
        sessionId: event.sessionId,
        callId: (record.callId as string) ?? null,
        tool: (record.tool as string) ?? null,
        outcome: 'asked',
        data: { approvalId: record.approvalId, reason: record.reason },
      });
    } else if (event.type === 'approval_resolved') {
      void this.deps.audit.append({
        kind: 'approval.decision',
        actor: String(record.resolvedBy ?? 'system'),
        sessionId: event.sessionId,
        callId: (record.callId as string) ?? null,
        tool: (record.tool as string) ?? null,
        outcome: String(record.decision ?? record.status ?? 'resolved'),
        data: { approvalId: record.approvalId ?? record.id },
      });
    } else if (
      event.type === 'tool_call_finished' &&
      (record.policy as { action?: string } | undefined)?.action === 'deny'
    ) {
      void this.deps.audit.append({
        kind: 'policy.decision',
        actor: 'policy',
        sessionId: event.sessionId,
        callId: (record.callId as string) ?? null,
        tool: (record.tool as string) ?? null,
        outcome: 'denied',
        data: { policy: record.policy },
      });
    }
  }
}

/** A built-in slash command, or undefined when the command name is not one (bad arguments still throw). */
function builtinCommand(message: string): SlashCommand | undefined {
  try {
    return parseSlashCommand(message);
  } catch (error) {
    if (TalonError.isInstance(error) && error.code === ERROR_CODES.UNKNOWN_METHOD) return undefined;
    throw error;
  }
}

function toReply(result: TurnResult): ChatSendReply {
  return {
    sessionId: result.sessionId,
    turnId: result.turnId,
    reason: result.reason,
    ...(result.content !== undefined ? { content: result.content } : {}),
    iterations: result.iterations,
    usage: { inputTokens: result.usage.inputTokens, outputTokens: result.usage.outputTokens },
    timings: result.timings,
    ...(result.error ? { error: result.error } : {}),
  };
}

/** An error as a chat event, for streams that must end with something readable. */
export function errorEvent(sessionId: string, error: unknown): ChatEvent {
  return { type: 'error', sessionId, error: toWireError(error), fatal: true };
}
