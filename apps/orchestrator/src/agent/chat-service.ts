import { randomBytes } from 'node:crypto';
import type { NatsConnection } from '@nats-io/transport-node';
import {
  isSlashCommand,
  parseSlashCommand,
  SessionBusyError,
  slashCommandHelp,
  matchesSlashFilter,
  type AgentEvent,
  type ApprovalQueue,
  RunningTurns,
  type SlashCommand,
  type ToolCallOutcome,
  type TurnResult,
  type TurnRunner,
} from '@talon/agent';
import {
  ERROR_CODES,
  SUBJECTS,
  type ChatEvent,
  type ChatSendReply,
  type McpPromptGetReply,
  type McpPromptListReply,
  type SkillParameter,
  type SkillSummary,
} from '@talon/contracts';
import { TalonError, toWireError } from '@talon/errors';
import { checkPromptArguments, promptAsUserMessage } from '@talon/mcp';
import type { PrismaClient } from '@talon/persistence';
import { fillSkillParameters, parseCommandArguments, SkillParameterError } from '@talon/skills';
import { encodeJson, type JsonLogger } from '@talon/service-runtime';
import type { ToolCatalog } from '@talon/tool-runtime';
import type { AuditLog } from '../audit/audit-log.js';
import type { McpControlClient } from '../mcp/mcp-control-client.js';
import type { SkillServiceClient } from '../skills/skill-service-client.js';
import { CONFIGURE_MODEL_HINT } from './unconfigured-provider.js';

const EVENT_ID_PREFIX = `${Date.now().toString(36)}${randomBytes(4).toString('hex')}`;
let eventCounter = 0;

/** A job's turn, as the job runner asks for it. */
export interface JobTurnInput {
  jobId: string;
  sessionId: string;
  message: string;
  mentionSkills?: readonly string[];
  /** Filled, checked parameters by skill name, rendered into the mentioned skills' bodies. */
  skillParameters?: Readonly<Record<string, Record<string, unknown>>>;
  maxIterations?: number;
  toolAllowlist?: readonly string[];
  /** Run instructions for the system prompt (a hand's rendered prompt). */
  instructions?: string;
  autonomous: boolean;
  /** Finish the session's interrupted turn (after a takeover) instead of starting one. */
  resume?: boolean;
  signal?: AbortSignal;
  onEvent?: ChatEventSink;
}

/** Answers a message before the model, or returns undefined to let the turn run. */
export type MessageIntercept = (
  sessionId: string,
  message: string,
  emit: (event: ChatEvent) => void,
) => Promise<ChatSendReply | undefined>;

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
  /** MCP read queries (`/prompt` renders a server's prompt). */
  mcp?: Pick<McpControlClient, 'query'>;
}

/**
 * One user message, end to end: slash commands are answered here (they work with no model), anything
 * else runs a turn of the agent loop. Every event is published on `talon.events.v1.session.<id>` and
 * handed to the caller's sink; policy refusals and approval decisions are audited.
 */
export class ChatService {
  /** Whether each known session is autonomous: fixed at creation, so it is read once. */
  private readonly autonomy = new Map<string, boolean>();
  private messageObserver?: (sessionId: string, message: string) => void;
  private messageIntercept?: MessageIntercept;
  /** The turns running here, so `sessions.cancel` can stop them. */
  readonly running = new RunningTurns();

  constructor(private readonly deps: ChatServiceDeps) {}

  /** Runs `work` as one of the session's running turns (cancellable), then unregisters it. */
  private async asRunningTurn<T>(
    sessionId: string,
    signal: AbortSignal | undefined,
    work: (signal: AbortSignal) => Promise<T>,
  ): Promise<T> {
    const turn = this.running.begin(sessionId, signal);
    try {
      return await work(turn.signal);
    } finally {
      turn.end();
    }
  }

  /** Sees every incoming user message (event-triggered routines match it); failures are only logged. */
  observeMessages(observer: (sessionId: string, message: string) => void): void {
    this.messageObserver = observer;
  }

  /** Answers some messages before the model (schedules caught by the reminders module). */
  interceptMessages(intercept: MessageIntercept): void {
    this.messageIntercept = intercept;
  }

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

  send(
    sessionId: string,
    message: string,
    sink?: ChatEventSink,
    signal?: AbortSignal,
  ): Promise<ChatSendReply> {
    return this.asRunningTurn(sessionId, signal, (turnSignal) =>
      this.sendInTurn(sessionId, message, sink, turnSignal),
    );
  }

  private async sendInTurn(
    sessionId: string,
    message: string,
    sink: ChatEventSink | undefined,
    signal: AbortSignal,
  ): Promise<ChatSendReply> {
    const session = { autonomous: await this.sessionAutonomy(sessionId) };
    const emit = this.emitter(sessionId, sink);
    try {
      this.messageObserver?.(sessionId, message);
    } catch (error) {
      this.deps.logger.write('warn', 'message observer failed', { error: String(error) });
    }
    let skillParameters: Record<string, Record<string, unknown>> | undefined;
    if (isSlashCommand(message)) {
      const command = builtinCommand(message);
      if (command) return this.command(sessionId, command, session.autonomous, emit, signal);
      // `/review …` and `/<skill-name> …` are skill mentions: the turn runs and selection activates the skill.
      const skill = await this.skillForCommand(message);
      if (!skill) throw new TalonError(ERROR_CODES.UNKNOWN_METHOD, `Not a command. ${slashCommandHelp()}`);
      const filled = commandParameters(skill, message);
      if (filled.missing.length > 0) return this.askForParameters(sessionId, skill, filled.missing, emit);
      skillParameters = filled.parameters;
    } else if (this.messageIntercept) {
      const caught = await this.messageIntercept(sessionId, message, emit);
      if (caught) return caught;
    }
    const result = await this.deps.runner.run({
      sessionId,
      message,
      autonomous: session.autonomous,
      actor: 'model',
      signal,
      onEvent: emit,
      ...(skillParameters ? { skillParameters } : {}),
    });
    return toReply(result);
  }

  /** The skill a `/word` names, as a command trigger or by its name (both activate it in selection). */
  private async skillForCommand(message: string): Promise<SkillSummary | undefined> {
    const word = /^\/([A-Za-z0-9][\w-]*)/.exec(message.trim())?.[1]?.toLowerCase();
    if (!word) return undefined;
    try {
      const [triggers, listing] = await Promise.all([this.deps.skills.triggers(), this.deps.skills.list({})]);
      const name =
        triggers.commands.find((entry) => entry.command.replace(/^\//, '') === word)?.skill ?? word;
      return listing.skills.find((skill) => skill.name === name);
    } catch {
      return undefined;
    }
  }

  /**
   * An MCP prompt rendered by its server as the user message of a turn (prompts are templates their
   * server fills): `key=value` arguments checked against the prompt's declared ones first — an undeclared
   * key is SCHEMA_VIOLATION, missing required ones come back as the question to ask.
   */
  private async promptMessage(
    command: Extract<SlashCommand, { kind: 'prompt' }>,
  ): Promise<string | { question: string }> {
    if (!this.deps.mcp)
      throw new TalonError(ERROR_CODES.UNAVAILABLE, 'MCP prompts are not available in this orchestrator.');
    const parsed = command.arguments ? parseCommandArguments(`/prompt ${command.arguments}`) : undefined;
    const given = Object.fromEntries(
      Object.entries(parsed?.values ?? {}).map(([key, value]) => [key, String(value)]),
    ) as Record<string, string>;
    const listing = await this.deps.mcp.query<McpPromptListReply>('prompts.list', { server: command.server });
    const prompt = listing.prompts.find((entry) => entry.name === command.name);
    if (!prompt)
      throw new TalonError(
        ERROR_CODES.NOT_FOUND,
        `The MCP server "${command.server}" has no prompt "${command.name}"; it offers: ${listing.prompts.map((entry) => entry.name).join(', ') || 'none'}.`,
        { details: { server: command.server, prompt: command.name } },
      );
    const check = checkPromptArguments(prompt, given);
    if (check.undeclared.length > 0)
      throw new TalonError(
        ERROR_CODES.SCHEMA_VIOLATION,
        `The prompt ${command.server}.${command.name} does not take ${check.undeclared.join(', ')}; it takes ${prompt.arguments.map((argument) => argument.name).join(', ') || 'no arguments'}.`,
        { details: { server: command.server, prompt: command.name, undeclared: check.undeclared } },
      );
    if (check.missing.length > 0) {
      const wanted = check.missing
        .map((argument) => `${argument.name}${argument.description ? ` (${argument.description})` : ''}`)
        .join(', ');
      return {
        question: `The prompt ${command.server}.${command.name} needs ${wanted}. Send it again with ${check.missing.map((argument) => `${argument.name}=…`).join(' ')}, for example: /prompt ${command.server}.${command.name} ${check.missing.map((argument) => `${argument.name}=…`).join(' ')}`,
      };
    }
    const rendered = await this.deps.mcp.query<McpPromptGetReply>('prompts.get', {
      server: command.server,
      name: command.name,
      arguments: given,
    });
    return promptAsUserMessage(rendered);
  }

  /** Answers with a question instead of running a turn (a command that lacks what it needs). */
  private askFor(
    sessionId: string,
    content: string,
    emit: (event: AgentEvent | ChatEvent) => void,
  ): ChatSendReply {
    emit({ type: 'message', sessionId, turnId: '', content });
    return {
      sessionId,
      turnId: '',
      reason: 'needs_input',
      content,
      iterations: 0,
      usage: { inputTokens: 0, outputTokens: 0 },
      timings: { totalMs: 0, modelMs: 0, toolMs: 0, overheadMs: 0 },
    };
  }

  /** Answers a skill command that lacks required parameters with a question, without running a turn. */
  private askForParameters(
    sessionId: string,
    skill: SkillSummary,
    missing: readonly SkillParameter[],
    emit: (event: AgentEvent | ChatEvent) => void,
  ): ChatSendReply {
    const command = skill.triggers.find((trigger) => trigger.kind === 'command')?.command ?? `/${skill.name}`;
    const wanted = missing
      .map(
        (parameter) =>
          `${parameter.name} (${parameter.type}${parameter.description ? `: ${parameter.description}` : ''})`,
      )
      .join(', ');
    const content = `The skill "${skill.name}" needs ${wanted}. Send it again with ${missing.map((parameter) => `${parameter.name}=…`).join(' ')}, for example: ${command} ${missing.map((parameter) => `${parameter.name}=…`).join(' ')}`;
    return this.askFor(sessionId, content, emit);
  }

  /**
   * Runs a job's turn in the job's own session: the same loop, session stream and audit as a chat
   * message, with the job's limits and tool allowlist. `autonomous` false lets calls wait for approval.
   */
  runJobTurn(input: JobTurnInput): Promise<TurnResult> {
    return this.asRunningTurn(input.sessionId, input.signal, (signal) =>
      this.runJobTurnInTurn({ ...input, signal }),
    );
  }

  private async runJobTurnInTurn(input: JobTurnInput): Promise<TurnResult> {
    const emit = this.emitter(input.sessionId, input.onEvent);
    const common = {
      autonomous: input.autonomous,
      actor: `job:${input.jobId}`,
      // The job's own lease owns its session (taken over by the job runner), not a turn lease.
      leased: false,
      signal: input.signal,
      onEvent: emit,
      ...(input.maxIterations === undefined ? {} : { maxIterations: input.maxIterations }),
      ...(input.toolAllowlist === undefined ? {} : { toolAllowlist: input.toolAllowlist }),
      ...(input.instructions === undefined ? {} : { instructions: input.instructions }),
    };
    if (input.resume) {
      const resumed = await this.deps.runner.resumeTurn(input.sessionId, common);
      if (resumed !== undefined) return resumed;
    }
    return this.deps.runner.run({
      ...common,
      sessionId: input.sessionId,
      message: input.message,
      ...(input.mentionSkills === undefined ? {} : { mentionSkills: input.mentionSkills }),
      ...(input.skillParameters === undefined ? {} : { skillParameters: input.skillParameters }),
    });
  }

  /**
   * A skill's parameters for a job: filled from the action's params and the trigger's payload (a
   * webhook body, an event's data), typed and checked against the skill's declaration. A bad value
   * throws SCHEMA_VIOLATION naming it; a required one with no value and no default throws too, since
   * nobody is there to ask.
   */
  async jobSkillParameters(
    skillName: string,
    values: Readonly<Record<string, unknown>>,
    source: 'trigger' | 'api' | 'hand',
  ): Promise<Record<string, unknown>> {
    const filled = await this.skillParametersOf([skillName], values, source);
    const parameters = filled[skillName];
    if (!parameters)
      throw new TalonError(ERROR_CODES.NOT_FOUND, `No skill "${skillName}"; list them with skills.list.`, {
        details: { skill: skillName },
      });
    return parameters;
  }

  /**
   * The same for several skills from one listing (a hand names a few): the parameters of each skill
   * found, by name; a name with no installed skill is left out.
   */
  async skillParametersOf(
    skillNames: readonly string[],
    values: Readonly<Record<string, unknown>>,
    source: 'trigger' | 'api' | 'hand',
  ): Promise<Record<string, Record<string, unknown>>> {
    if (skillNames.length === 0) return {};
    const { skills } = await this.deps.skills.list({});
    const result: Record<string, Record<string, unknown>> = {};
    for (const name of skillNames) {
      const skill = skills.find((entry) => entry.name === name);
      if (!skill) continue;
      const filled = fillSkillParameters(skill, { source, values });
      if (filled.missing.length > 0)
        throw new SkillParameterError(
          skill.name,
          filled.missing.map((parameter) => parameter.name).join(', '),
          source === 'hand'
            ? `is required and has no default; add a setting with that key to the hand`
            : `is required and has no default; give it in the job's action.params or the trigger's payload`,
        );
      result[name] = filled.values;
    }
    return result;
  }

  /** Runs a job's single tool call through policy and approvals (no model). */
  callJobTool(input: {
    jobId: string;
    sessionId: string;
    tool: string;
    params: Record<string, unknown>;
    autonomous: boolean;
    signal?: AbortSignal;
    onEvent?: ChatEventSink;
  }): Promise<ToolCallOutcome> {
    return this.deps.runner.callTool({
      sessionId: input.sessionId,
      tool: input.tool,
      params: input.params,
      actor: `job:${input.jobId}`,
      autonomous: input.autonomous,
      signal: input.signal,
      onEvent: this.emitter(input.sessionId, input.onEvent),
    });
  }

  /** Publishes an event on a session's stream (reminders). */
  publish(sessionId: string, event: Record<string, unknown> & { type: string }): void {
    this.emitter(sessionId)(event as ChatEvent);
  }

  /**
   * Continues a turn whose owner stopped (a restart, a crash: its lease expired), or that was waiting
   * for approvals when the orchestrator stopped. `undefined` when there is nothing to continue here:
   * no unfinished turn, a job's session, or a turn another orchestrator still holds.
   */
  async resume(sessionId: string): Promise<TurnResult | undefined> {
    const session = await this.deps.prisma.session.findUnique({ where: { id: sessionId } });
    if (!session || this.deps.runner.isBusy(sessionId)) return undefined;
    // A job's session is resumed by the job runner that takes the job's lease, never here.
    if ((session.metadata as { jobId?: string } | null)?.jobId !== undefined) return undefined;
    try {
      return await this.asRunningTurn(sessionId, undefined, (signal) =>
        this.deps.runner.resumeTurn(sessionId, {
          autonomous: session.autonomous,
          signal,
          onEvent: this.emitter(sessionId),
        }),
      );
    } catch (error) {
      // Its owner is alive and renews the lease: it is not ours to continue.
      if (error instanceof SessionBusyError) return undefined;
      throw error;
    }
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
          tools: this.deps.catalog
            .list()
            .filter((entry) => matchesSlashFilter(entry.definition, command.filter))
            .map((entry) => ({
              name: entry.definition.name,
              description: entry.definition.description,
              approval: entry.definition.approval,
              effects: entry.definition.effects,
            })),
          ...(command.filter ? { filter: command.filter } : {}),
        };
        break;
      case 'skills': {
        const listing = await this.deps.skills.list({});
        result = {
          ...listing,
          skills: listing.skills.filter((skill) => matchesSlashFilter(skill, command.filter)),
          ...(command.filter ? { filter: command.filter } : {}),
        };
        break;
      }
      case 'approvals':
        result = {
          approvals: (await this.deps.approvals.listPending(sessionId)).map((approval) => ({
            id: approval.id,
            tool: approval.tool,
            params: approval.params,
            reason: approval.reason,
            createdAt: approval.createdAt,
            expiresAt: approval.expiresAt,
          })),
        };
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
        const skill = (await this.deps.skills.list({})).skills.find((entry) => entry.name === command.name);
        const filled = skill
          ? commandParameters(skill, `/${command.name} ${command.message}`)
          : { missing: [], parameters: undefined };
        if (skill && filled.missing.length > 0)
          return this.askForParameters(sessionId, skill, filled.missing, emit);
        if (!this.deps.modelConfigured) {
          result = {
            skill: command.name,
            selection: await this.deps.skills.select(`$${command.name} ${command.message}`, {
              ...(filled.parameters ? { parameters: filled.parameters } : {}),
            }),
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
          ...(filled.parameters ? { skillParameters: filled.parameters } : {}),
        });
        return toReply(turn);
      }
      case 'prompt': {
        const message = await this.promptMessage(command);
        if (typeof message !== 'string') return this.askFor(sessionId, message.question, emit);
        if (!this.deps.modelConfigured) {
          result = { prompt: `${command.server}.${command.name}`, message, note: CONFIGURE_MODEL_HINT };
          break;
        }
        return toReply(
          await this.deps.runner.run({
            sessionId,
            message,
            autonomous,
            actor: 'model',
            signal,
            onEvent: emit,
          }),
        );
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
      // The id a cut stream resumes after (SSE `id` / `Last-Event-ID`): unique across replicas.
      const wire = { ...event, sessionId, eventId: `${EVENT_ID_PREFIX}.${++eventCounter}` } as ChatEvent;
      this.deps.connection.publish(subject, encodeJson(wire));
      this.auditEvent(wire);
      try {
        sink?.(wire);
      } catch (error) {
        this.deps.logger.write('warn', 'chat event sink failed', { error: String(error) });
      }
    };
  }

  /**
   * Policy refusals, approval decisions and skill pre-approvals go to the audit chain (tool calls are audited by
   * the dispatcher). A pre-approval is recorded twice over: each `allowed-tools` entry judged when the skill
   * activates (`skill.pre_approval`, granted or refused), and each call it let run (`policy.decision`), both
   * with the skill as the actor.
   */
  private auditEvent(event: ChatEvent): void {
    const record = event as Record<string, unknown>;
    if (event.type === 'skill_pre_approvals') {
      for (const decision of (record.decisions as Array<Record<string, unknown>> | undefined) ?? []) {
        void this.deps.audit.append({
          kind: 'skill.pre_approval',
          actor: `skill:${String(decision.skill)}`,
          sessionId: event.sessionId,
          tool: String(decision.tool),
          outcome: decision.granted === true ? 'granted' : 'refused',
          data: { skill: decision.skill, reason: decision.reason, turnId: record.turnId },
        });
      }
      return;
    }
    const policy = record.policy as { source?: string; preApprovedBy?: string } | undefined;
    if (event.type === 'tool_call_finished' && policy?.source === 'skill_pre_approval') {
      void this.deps.audit.append({
        kind: 'policy.decision',
        actor: `skill:${policy.preApprovedBy ?? 'unknown'}`,
        sessionId: event.sessionId,
        callId: (record.callId as string) ?? null,
        tool: (record.tool as string) ?? null,
        outcome: 'pre_approved',
        data: { policy: record.policy, skill: policy.preApprovedBy },
      });
      return;
    }
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
    } else if (event.type === 'tool_call_finished' && record.code === ERROR_CODES.INTERRUPTED) {
      // Its owner died while it ran (or before its result was stored): whether it took effect is unknown.
      void this.deps.audit.append({
        kind: 'tool.interrupted',
        actor: 'system:takeover',
        sessionId: event.sessionId,
        callId: (record.callId as string) ?? null,
        tool: (record.tool as string) ?? null,
        outcome: 'interrupted',
        data: { turnId: record.turnId, message: record.message },
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

/**
 * The `key=value` pairs of a skill command, typed against the skill's declared parameters (a wrong type or an
 * undeclared key throws SCHEMA_VIOLATION); required ones still missing are returned to be asked for.
 */
function commandParameters(
  skill: SkillSummary,
  message: string,
): { missing: SkillParameter[]; parameters?: Record<string, Record<string, unknown>> } {
  if (skill.parameters.length === 0) return { missing: [] };
  const filled = fillSkillParameters(skill, {
    source: 'command',
    values: parseCommandArguments(message)?.values ?? {},
  });
  return { missing: filled.missing, parameters: { [skill.name]: filled.values } };
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
