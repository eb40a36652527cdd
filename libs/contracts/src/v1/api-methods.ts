import { Type, type Static, type TSchema } from '@sinclair/typebox';
import { EmptyRequestSchema } from './api.js';
import type { ApiScope } from './auth.js';
import { ArtifactSchema, ArtifactsGetRequestSchema } from './artifacts.js';
import { AuditListReplySchema, AuditListRequestSchema } from './audit.js';
import {
  HandInstanceRequestSchema,
  HandInstancesReplySchema,
  HandRunIdRequestSchema,
  HandsActivateRequestSchema,
  HandsApproveRequestSchema,
  HandsCancelRequestSchema,
  HandsExecuteRequestSchema,
  HandsGetRequestSchema,
  HandsInstancesRequestSchema,
  HandsListReplySchema,
  HandsListRequestSchema,
  HandsRunsListRequestSchema,
  HandSummarySchema,
} from './hands.js';
import {
  RemindersCancelRequestSchema,
  RemindersListReplySchema,
  RemindersListRequestSchema,
} from './reminders.js';
import {
  JobIdRequestSchema,
  JobSchema,
  JobsCreateRequestSchema,
  JobsEventsReplySchema,
  JobsEventsRequestSchema,
  JobsListReplySchema,
  JobsListRequestSchema,
} from './jobs.js';
import { McpAuthorizeRequestSchema } from './mcp-auth.js';
import { McpServerViewSchema, McpViewListReplySchema } from './mcp-control.js';
import {
  McpCallRequestSchema,
  McpListPageRequestSchema,
  McpPromptGetReplySchema,
  McpPromptGetRequestSchema,
  McpPromptListReplySchema,
  McpResourceListReplySchema,
  McpResourceReadReplySchema,
  McpResourceReadRequestSchema,
  McpServerRequestSchema,
} from './mcp.js';
import { McpAddRequestSchema, McpDefinitionReplySchema } from './mcp-server-config.js';
import {
  EventsEmitReplySchema,
  EventsEmitRequestSchema,
  RoutineFireSchema,
  RoutineIdRequestSchema,
  RoutineSchema,
  RoutinesCreateReplySchema,
  RoutinesCreateRequestSchema,
  RoutinesFireRequestSchema,
  RoutinesHistoryReplySchema,
  RoutinesHistoryRequestSchema,
  RoutinesListRequestSchema,
  RoutinesUpdateRequestSchema,
} from './routines.js';
import { ScheduleParseRequestSchema, ScheduleParseResultSchema } from './schedule.js';
import {
  ApprovalsListRequestSchema,
  ApprovalsResolveRequestSchema,
  ChatSendReplySchema,
  ChatSendRequestSchema,
  SecretsDeleteRequestSchema,
  SecretsSetRequestSchema,
  SessionDetailSchema,
  SessionSchema,
  SessionsCancelReplySchema,
  SessionsCancelRequestSchema,
  SessionsCreateRequestSchema,
  SessionsGetRequestSchema,
  SessionsListRequestSchema,
} from './sessions.js';
import {
  SelectRequestSchema,
  SelectResultSchema,
  SkillInstallRequestSchema,
  SkillInstallResultSchema,
  SkillListRequestSchema,
  SkillListResultSchema,
  SkillRemoveRequestSchema,
  SkillRemoveResultSchema,
  SkillSearchRequestSchema,
  SkillSearchResultSchema,
  SkillTriggerTableSchema,
} from './skills.js';
import {
  SystemPingReplySchema,
  SystemPingRequestSchema,
  SystemStatusRequestSchema,
  SystemStatusSchema,
} from './system.js';
import {
  ApiTokenInfoSchema,
  TokensCreateReplySchema,
  TokensCreateRequestSchema,
  TokensListRequestSchema,
  TokensRevokeRequestSchema,
} from './tokens.js';
import { ToolBuildInstallRequestSchema, ToolBuildRequestSchema } from './tool-build.js';
import {
  CatalogToolSchema,
  ToolsCallReplySchema,
  ToolsCallRequestSchema,
  ToolsInfoRequestSchema,
  ToolsListReplySchema,
  ToolsListRequestSchema,
} from './tools.js';
import {
  ToolPackageRequestSchema,
  ToolsInstalledRequestSchema,
  ToolsInstallRequestSchema,
  ToolsSearchRequestSchema,
  ToolsUpgradeRequestSchema,
} from './wasm-tools.js';

/**
 * One method of the public API as callers see it: the scope a token needs (`by-request` when the
 * validated request decides, as for `tools.call`), whether a retry is harmless, and the JSON Schemas of
 * its request and of the `data` of a successful reply.
 */
export interface ApiMethodContract<Request extends TSchema = TSchema, Reply extends TSchema = TSchema> {
  /** The scope a token needs. */
  readonly scope: ApiScope | 'by-request';
  /** True when calling twice has the effect of calling once: clients may retry it after a retryable error. */
  readonly idempotent: boolean;
  /** One line for people (OpenAPI summary, client docs). */
  readonly summary: string;
  /** JSON Schema of the payload. */
  readonly request: Request;
  /** JSON Schema of `data` in a successful reply (extra fields are allowed: a newer server may add some). */
  readonly reply: Reply;
}

function method<Request extends TSchema, Reply extends TSchema>(
  contract: ApiMethodContract<Request, Reply>,
): ApiMethodContract<Request, Reply> {
  return contract;
}

/** A reply the contract only knows to be a JSON object (no field list published yet). */
const AnyObject = Type.Object({});
const ApprovalSchema = Type.Object({
  id: Type.String(),
  sessionId: Type.String(),
  tool: Type.String(),
  status: Type.String(),
});
const RoutineIdSchema = Type.Object({ id: Type.String() });

/**
 * The public API, one entry per method: the single list the client (`@talon/client`), the OpenAPI
 * document and the orchestrator's router check against. Add a new method at the END; the client gains
 * `client.<area>.<name>()` from this entry alone.
 */
export const API_METHODS = {
  'system.status': method({
    scope: 'read',
    idempotent: true,
    summary: 'Which services answer, with instances, versions, latency and in-flight calls.',
    request: SystemStatusRequestSchema,
    reply: SystemStatusSchema,
  }),
  'system.ping': method({
    scope: 'read',
    idempotent: true,
    summary: 'A no-op request to one instance of a service; says which instance answered.',
    request: SystemPingRequestSchema,
    reply: SystemPingReplySchema,
  }),
  'tools.list': method({
    scope: 'read',
    idempotent: true,
    summary: 'The live tool catalog: definitions, where each runs, refused name conflicts.',
    request: ToolsListRequestSchema,
    reply: ToolsListReplySchema,
  }),
  'tools.info': method({
    scope: 'read',
    idempotent: true,
    summary: 'One tool of the catalog by name.',
    request: ToolsInfoRequestSchema,
    reply: CatalogToolSchema,
  }),
  'tools.call': method({
    scope: 'by-request',
    idempotent: false,
    summary: 'Runs one tool through the whole pipeline (operator policy, or agent policy with a session).',
    request: ToolsCallRequestSchema,
    reply: ToolsCallReplySchema,
  }),
  'tools.search': method({
    scope: 'read',
    idempotent: true,
    summary: 'Searches the WebAssembly tool registry.',
    request: ToolsSearchRequestSchema,
    reply: AnyObject,
  }),
  'tools.install': method({
    scope: 'operator',
    idempotent: false,
    summary: 'Installs a WebAssembly tool or bundle from the registry.',
    request: ToolsInstallRequestSchema,
    reply: AnyObject,
  }),
  'tools.upgrade': method({
    scope: 'operator',
    idempotent: false,
    summary: 'Upgrades an installed WebAssembly tool.',
    request: ToolsUpgradeRequestSchema,
    reply: AnyObject,
  }),
  'tools.remove': method({
    scope: 'operator',
    idempotent: false,
    summary: 'Removes an installed WebAssembly tool.',
    request: ToolPackageRequestSchema,
    reply: AnyObject,
  }),
  'tools.build': method({
    scope: 'operator',
    idempotent: false,
    summary: 'Builds a WebAssembly tool from a description.',
    request: ToolBuildRequestSchema,
    reply: AnyObject,
  }),
  'tools.installBuild': method({
    scope: 'operator',
    idempotent: false,
    summary: 'Installs a tool built by tools.build.',
    request: ToolBuildInstallRequestSchema,
    reply: AnyObject,
  }),
  'tools.installed': method({
    scope: 'read',
    idempotent: true,
    summary: 'Installed WebAssembly tools.',
    request: ToolsInstalledRequestSchema,
    reply: AnyObject,
  }),
  'extensions.info': method({
    scope: 'read',
    idempotent: true,
    summary: 'What an installed extension declares (capabilities, secrets).',
    request: ToolPackageRequestSchema,
    reply: AnyObject,
  }),
  'skills.list': method({
    scope: 'read',
    idempotent: true,
    summary: 'Discovered skills with gating and the discovery report.',
    request: SkillListRequestSchema,
    reply: SkillListResultSchema,
  }),
  'skills.search': method({
    scope: 'read',
    idempotent: true,
    summary: 'Ranks skills for a query.',
    request: SkillSearchRequestSchema,
    reply: SkillSearchResultSchema,
  }),
  'skills.select': method({
    scope: 'read',
    idempotent: true,
    summary: 'Which skills a message activates, with scores and reasons.',
    request: SelectRequestSchema,
    reply: SelectResultSchema,
  }),
  'skills.install': method({
    scope: 'operator',
    idempotent: false,
    summary: 'Installs a skill.',
    request: SkillInstallRequestSchema,
    reply: SkillInstallResultSchema,
  }),
  'skills.remove': method({
    scope: 'operator',
    idempotent: false,
    summary: 'Removes an installed skill.',
    request: SkillRemoveRequestSchema,
    reply: SkillRemoveResultSchema,
  }),
  'skills.triggers': method({
    scope: 'read',
    idempotent: true,
    summary: 'The triggers skills declare (webhook, command, schedule, manual).',
    request: EmptyRequestSchema,
    reply: SkillTriggerTableSchema,
  }),
  'mcp.list': method({
    scope: 'read',
    idempotent: true,
    summary: 'MCP servers with state and instances.',
    request: EmptyRequestSchema,
    reply: McpViewListReplySchema,
  }),
  'mcp.start': method({
    scope: 'operator',
    idempotent: false,
    summary: 'Starts an MCP server.',
    request: McpServerRequestSchema,
    reply: McpServerViewSchema,
  }),
  'mcp.stop': method({
    scope: 'operator',
    idempotent: false,
    summary: 'Stops an MCP server.',
    request: McpServerRequestSchema,
    reply: McpServerViewSchema,
  }),
  'mcp.authorize': method({
    scope: 'operator',
    idempotent: false,
    summary: 'Starts the OAuth flow of an MCP server.',
    request: McpAuthorizeRequestSchema,
    reply: McpServerViewSchema,
  }),
  'mcp.call': method({
    scope: 'operator',
    idempotent: false,
    summary: 'Calls one tool of an MCP server through the pipeline.',
    request: McpCallRequestSchema,
    reply: ToolsCallReplySchema,
  }),
  'mcp.resources.list': method({
    scope: 'read',
    idempotent: true,
    summary: "One page of an MCP server's resources.",
    request: McpListPageRequestSchema,
    reply: McpResourceListReplySchema,
  }),
  'mcp.resources.read': method({
    scope: 'agent',
    idempotent: true,
    summary: 'Reads one resource of an MCP server by URI.',
    request: McpResourceReadRequestSchema,
    reply: McpResourceReadReplySchema,
  }),
  'mcp.prompts.list': method({
    scope: 'read',
    idempotent: true,
    summary: "One page of an MCP server's prompts.",
    request: McpListPageRequestSchema,
    reply: McpPromptListReplySchema,
  }),
  'mcp.prompts.get': method({
    scope: 'agent',
    idempotent: true,
    summary: 'Renders one prompt of an MCP server.',
    request: McpPromptGetRequestSchema,
    reply: McpPromptGetReplySchema,
  }),
  'sessions.create': method({
    scope: 'agent',
    idempotent: false,
    summary: 'Creates a chat session.',
    request: SessionsCreateRequestSchema,
    reply: SessionSchema,
  }),
  'sessions.get': method({
    scope: 'agent',
    idempotent: true,
    summary: 'One session, optionally with its messages.',
    request: SessionsGetRequestSchema,
    reply: SessionDetailSchema,
  }),
  'sessions.list': method({
    scope: 'agent',
    idempotent: true,
    summary: 'Sessions the caller may use, newest first.',
    request: SessionsListRequestSchema,
    reply: Type.Object({ sessions: Type.Array(SessionSchema) }),
  }),
  'chat.send': method({
    scope: 'agent',
    idempotent: false,
    summary: 'Sends one user message and runs the turn; events stream meanwhile.',
    request: ChatSendRequestSchema,
    reply: ChatSendReplySchema,
  }),
  'approvals.list': method({
    scope: 'agent',
    idempotent: true,
    summary: 'Pending approvals, oldest first.',
    request: ApprovalsListRequestSchema,
    reply: Type.Object({ approvals: Type.Array(ApprovalSchema) }),
  }),
  'approvals.resolve': method({
    scope: 'agent',
    idempotent: false,
    summary: 'Approves, denies or approves for the rest of the session; the waiting turn resumes.',
    request: ApprovalsResolveRequestSchema,
    reply: ApprovalSchema,
  }),
  'audit.verify': method({
    scope: 'read',
    idempotent: true,
    summary: 'Walks the hash-chained audit log and names the first edited or deleted row.',
    request: EmptyRequestSchema,
    reply: Type.Object({ ok: Type.Boolean(), checked: Type.Integer(), headHash: Type.String() }),
  }),
  'secrets.set': method({
    scope: 'operator',
    idempotent: true,
    summary: 'Stores a secret (encrypted) with the hosts it may be sent to.',
    request: SecretsSetRequestSchema,
    reply: AnyObject,
  }),
  'secrets.list': method({
    scope: 'operator',
    idempotent: true,
    summary: 'Secret names and where they may be sent; never values.',
    request: EmptyRequestSchema,
    reply: Type.Object({ secrets: Type.Array(Type.Object({ name: Type.String() })) }),
  }),
  'secrets.delete': method({
    scope: 'operator',
    idempotent: true,
    summary: 'Deletes a secret.',
    request: SecretsDeleteRequestSchema,
    reply: Type.Object({ name: Type.String(), deleted: Type.Boolean() }),
  }),
  'tokens.create': method({
    scope: 'operator',
    idempotent: false,
    summary: 'Creates an API token; the token is in this reply only.',
    request: TokensCreateRequestSchema,
    reply: TokensCreateReplySchema,
  }),
  'tokens.list': method({
    scope: 'operator',
    idempotent: true,
    summary: 'API tokens, never the tokens themselves.',
    request: TokensListRequestSchema,
    reply: Type.Object({ tokens: Type.Array(ApiTokenInfoSchema) }),
  }),
  'tokens.revoke': method({
    scope: 'operator',
    idempotent: true,
    summary: 'Revokes an API token.',
    request: TokensRevokeRequestSchema,
    reply: ApiTokenInfoSchema,
  }),
  'schedule.parse': method({
    scope: 'read',
    idempotent: true,
    summary: 'Parses a natural-language schedule (Chinese or English) into cron with a confidence.',
    request: ScheduleParseRequestSchema,
    reply: ScheduleParseResultSchema,
  }),
  'hands.list': method({
    scope: 'read',
    idempotent: true,
    summary: 'Hands with their gating.',
    request: HandsListRequestSchema,
    reply: HandsListReplySchema,
  }),
  'hands.get': method({
    scope: 'read',
    idempotent: true,
    summary: 'One hand with its gating.',
    request: HandsGetRequestSchema,
    reply: HandSummarySchema,
  }),
  'jobs.create': method({
    scope: 'agent',
    idempotent: false,
    summary: 'Queues an autonomous job; any orchestrator runs it.',
    request: JobsCreateRequestSchema,
    reply: JobSchema,
  }),
  'jobs.list': method({
    scope: 'read',
    idempotent: true,
    summary: 'Jobs, newest first.',
    request: JobsListRequestSchema,
    reply: JobsListReplySchema,
  }),
  'jobs.get': method({
    scope: 'read',
    idempotent: true,
    summary: 'One job.',
    request: JobIdRequestSchema,
    reply: JobSchema,
  }),
  'jobs.cancel': method({
    scope: 'agent',
    idempotent: true,
    summary: 'Cancels a job.',
    request: JobIdRequestSchema,
    reply: JobSchema,
  }),
  'jobs.events': method({
    scope: 'read',
    idempotent: true,
    summary: 'Stored events of a job after `afterSeq`.',
    request: JobsEventsRequestSchema,
    reply: JobsEventsReplySchema,
  }),
  'routines.create': method({
    scope: 'agent',
    idempotent: false,
    summary: 'Creates a routine (trigger, action, guardrails).',
    request: RoutinesCreateRequestSchema,
    reply: RoutinesCreateReplySchema,
  }),
  'routines.list': method({
    scope: 'read',
    idempotent: true,
    summary: 'Routines.',
    request: RoutinesListRequestSchema,
    reply: Type.Object({ routines: Type.Array(RoutineSchema) }),
  }),
  'routines.get': method({
    scope: 'read',
    idempotent: true,
    summary: 'One routine.',
    request: RoutineIdRequestSchema,
    reply: RoutineSchema,
  }),
  'routines.update': method({
    scope: 'agent',
    idempotent: true,
    summary: 'Changes a routine.',
    request: RoutinesUpdateRequestSchema,
    reply: RoutineSchema,
  }),
  'routines.delete': method({
    scope: 'agent',
    idempotent: true,
    summary: 'Deletes a routine.',
    request: RoutineIdRequestSchema,
    reply: Type.Object({ id: Type.String(), deleted: Type.Boolean() }),
  }),
  'routines.pause': method({
    scope: 'agent',
    idempotent: true,
    summary: 'Pauses a routine.',
    request: RoutineIdRequestSchema,
    reply: RoutineSchema,
  }),
  'routines.resume': method({
    scope: 'agent',
    idempotent: true,
    summary: 'Resumes a paused routine.',
    request: RoutineIdRequestSchema,
    reply: RoutineSchema,
  }),
  'routines.fire': method({
    scope: 'agent',
    idempotent: false,
    summary: 'Fires a routine now (manual trigger).',
    request: RoutinesFireRequestSchema,
    reply: RoutineFireSchema,
  }),
  'routines.history': method({
    scope: 'read',
    idempotent: true,
    summary: 'Past fires of a routine.',
    request: RoutinesHistoryRequestSchema,
    reply: RoutinesHistoryReplySchema,
  }),
  'routines.secret': method({
    scope: 'operator',
    idempotent: true,
    summary: "A webhook routine's signing secret.",
    request: RoutineIdRequestSchema,
    reply: Type.Composite([RoutineIdSchema, Type.Object({ webhookSecret: Type.String() })]),
  }),
  'events.emit': method({
    scope: 'agent',
    idempotent: false,
    summary: 'Emits a system event; routines listening for it fire.',
    request: EventsEmitRequestSchema,
    reply: EventsEmitReplySchema,
  }),
  'artifacts.get': method({
    scope: 'read',
    idempotent: true,
    summary: 'The bytes (base64) of an image, audio or binary resource a tool result names by sha256.',
    request: ArtifactsGetRequestSchema,
    reply: ArtifactSchema,
  }),
  'audit.list': method({
    scope: 'operator',
    idempotent: true,
    summary: 'The audit log, paged and filtered.',
    request: AuditListRequestSchema,
    reply: AuditListReplySchema,
  }),
  'sessions.cancel': method({
    scope: 'agent',
    idempotent: true,
    summary: "Stops a session's running turn and its tool calls.",
    request: SessionsCancelRequestSchema,
    reply: SessionsCancelReplySchema,
  }),
  'hands.execute': method({
    scope: 'agent',
    idempotent: false,
    summary: 'Runs a hand (or an instance) as a job; a hand that requires approval waits for it.',
    request: HandsExecuteRequestSchema,
    reply: AnyObject,
  }),
  'hands.approve': method({
    scope: 'operator',
    idempotent: true,
    summary: 'Approves or denies a hand run awaiting approval.',
    request: HandsApproveRequestSchema,
    reply: AnyObject,
  }),
  'hands.cancel': method({
    scope: 'agent',
    idempotent: true,
    summary: 'Cancels every unfinished run of a hand or an instance.',
    request: HandsCancelRequestSchema,
    reply: AnyObject,
  }),
  'hands.activate': method({
    scope: 'agent',
    idempotent: false,
    summary: 'Activates a hand as a named instance with checked settings.',
    request: HandsActivateRequestSchema,
    reply: AnyObject,
  }),
  'hands.pause': method({
    scope: 'agent',
    idempotent: true,
    summary: 'Pauses a hand instance.',
    request: HandInstanceRequestSchema,
    reply: AnyObject,
  }),
  'hands.resume': method({
    scope: 'agent',
    idempotent: true,
    summary: 'Resumes a paused hand instance.',
    request: HandInstanceRequestSchema,
    reply: AnyObject,
  }),
  'hands.delete': method({
    scope: 'agent',
    idempotent: true,
    summary: 'Makes a hand instance inactive (its runs are kept).',
    request: HandInstanceRequestSchema,
    reply: AnyObject,
  }),
  'hands.instances': method({
    scope: 'read',
    idempotent: true,
    summary: 'Hand instances with their state, settings and metrics.',
    request: HandsInstancesRequestSchema,
    reply: HandInstancesReplySchema,
  }),
  'hands.runs.list': method({
    scope: 'read',
    idempotent: true,
    summary: 'Hand runs, newest first, by hand, instance or state.',
    request: HandsRunsListRequestSchema,
    reply: AnyObject,
  }),
  'hands.runs.get': method({
    scope: 'read',
    idempotent: true,
    summary: 'One hand run.',
    request: HandRunIdRequestSchema,
    reply: AnyObject,
  }),
  'hands.runs.cancel': method({
    scope: 'agent',
    idempotent: true,
    summary: 'Cancels one hand run.',
    request: HandRunIdRequestSchema,
    reply: AnyObject,
  }),
  'reminders.list': method({
    scope: 'read',
    idempotent: true,
    summary: 'Reminders set in chat and the ones delivered.',
    request: RemindersListRequestSchema,
    reply: RemindersListReplySchema,
  }),
  'reminders.cancel': method({
    scope: 'agent',
    idempotent: true,
    summary: 'Cancels a reminder.',
    request: RemindersCancelRequestSchema,
    reply: AnyObject,
  }),
  'mcp.add': method({
    scope: 'operator',
    idempotent: true,
    summary: 'Adds (or replaces) an MCP server definition shared by every replica.',
    request: McpAddRequestSchema,
    reply: McpDefinitionReplySchema,
  }),
  'mcp.remove': method({
    scope: 'operator',
    idempotent: false,
    summary: 'Removes an MCP server added with mcp.add and stops it everywhere.',
    request: McpServerRequestSchema,
    reply: McpDefinitionReplySchema,
  }),
} as const;

/** The public API's method table. */
export type ApiMethodTable = typeof API_METHODS;
/** The name of a public API method. */
export type ApiMethodName = keyof ApiMethodTable;
/** The payload of method `M`. */
export type ApiRequestOf<M extends ApiMethodName> = Static<ApiMethodTable[M]['request']>;
/** The `data` of a successful reply of method `M`. */
export type ApiReplyOf<M extends ApiMethodName> = Static<ApiMethodTable[M]['reply']>;

/** The names of every method, sorted. */
export const API_METHOD_NAMES = Object.keys(API_METHODS).sort() as ApiMethodName[];
