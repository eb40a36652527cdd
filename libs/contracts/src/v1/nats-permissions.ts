import { MCP_AUTHORIZE_SUBJECT } from './mcp-auth.js';
import {
  SHARED_STATE_BUCKETS,
  kvCreateSubject,
  kvReadSubjects,
  kvWriteSubjects,
  objectStoreReadSubjects,
  objectStoreWriteSubjects,
} from './shared-state.js';
import { toolBuildEventsSubject } from './tool-build.js';
import { MAX_TOOL_TIMEOUT_MS, TOOL_RESULT_BUCKET } from './tools.js';
import { WASM_DECLARED_SECRETS_SUBJECT } from './wasm-tools.js';
import { API_PREFIX, SERVICE_NAMES, SUBJECTS, TOOL_ACK_PREFIX, type ServiceName } from './subjects.js';

/**
 * The private bus: one NATS user per service and one `api` user for callers, each allowed exactly the
 * subjects below. `talon up`, the compose file and the test servers all render their nats-server
 * authorization from this one table (see `renderNatsAuthorization` in `@talon/auth`).
 */
export const NATS_USERS = ['orchestrator', 'skill-service', 'tool-worker', 'wasm-runner', 'api'] as const;
/** One NATS user of Talon. */
export type NatsUser = (typeof NATS_USERS)[number];

/**
 * How long the server lets a request be answered through `allow_responses`: longer than the longest tool
 * call and its transport margin. nats-server's default, two minutes, would refuse the result of a longer
 * call (the caller would then wait out its deadline for a reply the worker had sent).
 */
export const REPLY_WINDOW_MS = MAX_TOOL_TIMEOUT_MS + 60_000;

/** What one NATS user may publish and subscribe to. */
export interface NatsUserPermissions {
  /** Subjects the user may publish (and so request) on. */
  publish: readonly string[];
  /** Subjects the user may subscribe to (queue subscriptions included). */
  subscribe: readonly string[];
  /**
   * May answer requests it received (publish to their reply subject once, within {@link REPLY_WINDOW_MS})
   * without a publish grant. nats-server keeps one entry per request received until it is answered (or
   * its window ends), and once a connection holds more than 4,096 of them it scans them all on every
   * request it delivers: every request to a user with this set must be answered exactly once, and a user
   * that answers on static grants instead (the orchestrator) must not have it. (Measured on nats-server
   * 2.9: a responder that answered once where two replies were allowed went from 20 to 2,000 µs of server
   * CPU a request within 60,000 requests.)
   */
  allowResponses: boolean;
  /**
   * Inbox prefix the user's requests take their replies on. Services get one of their own, so no other
   * user can read their replies; callers share the default `_INBOX`.
   */
  inboxPrefix: string;
}

/** Inbox prefix of a service's own requests. */
export function serviceInboxPrefix(service: ServiceName): string {
  return `_INBOX_${service}`;
}

/** The one subject a worker uses to call another tool on behalf of a component (`tool-invoke`). */
export const TOOL_INVOKE_SUBJECT = 'talon.tools.v1.invoke';

/** MCP credentials a tool-worker may read for the remote servers it runs, e.g. `talon.mcp.v1.credentials.get`. */
export const MCP_CREDENTIALS_PREFIX = 'talon.mcp.v1.credentials';

/**
 * Workers acknowledge long calls on the requester's ack subjects. Any worker may publish there, so the
 * requester names each call by a random token: a worker can only acknowledge calls it was sent.
 */
const TOOL_ACK_ANY = `${TOOL_ACK_PREFIX}.>`;

/** Every instance's failover probe subject (instance ids are sanitized, so `*` cannot go through `toolCallCheck`). */
const TOOL_CALL_CHECK_ANY = 'talon.tools.v1.held.*';

/** Subjects every service answers for diagnostics. */
function serviceBasics(service: ServiceName): string[] {
  return [SUBJECTS.health(service), SUBJECTS.ping(service), `${serviceInboxPrefix(service)}.>`];
}

/** JetStream, key-value and object-store API subjects (durable state lives in the orchestrator today). */
const JETSTREAM = ['$JS.API.>', '$JS.ACK.>', '$KV.>', '$O.>'];
/**
 * The answers to JetStream's flow-control requests, which every ordered consumer (an object read, a KV
 * watch) must send: a user without `allow_responses` needs them granted, or its reads stall.
 */
const JETSTREAM_FLOW_CONTROL = '$JS.FC.>';

/** Each subject once, in order. */
function unique(subjects: string[]): string[] {
  return [...new Set(subjects)];
}

/**
 * MCP servers added with `mcp.add` are written by the orchestrator only; tool-workers and wasm-runners
 * follow them to run them, the skill-services to gate `requires.mcp` (each may create the bucket with
 * Talon's settings when it starts first).
 */
const MCP_DEFINITIONS_READER = unique([
  ...kvReadSubjects(SHARED_STATE_BUCKETS.mcpServers),
  kvCreateSubject(SHARED_STATE_BUCKETS.mcpServers),
]);

/** The wasm-runners install component tools, so they read and write the tool records and artifacts. */
const WASM_RUNNER_SHARED_STATE = unique([
  ...kvReadSubjects(SHARED_STATE_BUCKETS.wasmTools),
  ...kvWriteSubjects(SHARED_STATE_BUCKETS.wasmTools),
  ...objectStoreReadSubjects(SHARED_STATE_BUCKETS.wasmArtifacts),
  ...objectStoreWriteSubjects(SHARED_STATE_BUCKETS.wasmArtifacts),
  ...MCP_DEFINITIONS_READER,
  // Every runner that lists a stdio server's tools shares the list.
  ...kvReadSubjects(SHARED_STATE_BUCKETS.mcpToolSnapshots),
  ...kvWriteSubjects(SHARED_STATE_BUCKETS.mcpToolSnapshots),
]);

/** Workers leave results too large for one reply in the tool-result object store (the orchestrator reads them). */
const TOOL_RESULT_WRITER = unique([
  ...objectStoreReadSubjects(TOOL_RESULT_BUCKET),
  ...objectStoreWriteSubjects(TOOL_RESULT_BUCKET),
]);

/** The skill-services install skills, so they read and write the skill records; they read the MCP servers. */
const SKILL_SERVICE_SHARED_STATE = unique([
  ...kvReadSubjects(SHARED_STATE_BUCKETS.skills),
  ...kvWriteSubjects(SHARED_STATE_BUCKETS.skills),
  ...MCP_DEFINITIONS_READER,
]);

/** The permission table, derived from the subject names in `subjects.ts`. */
export const NATS_PERMISSIONS: Readonly<Record<NatsUser, NatsUserPermissions>> = {
  orchestrator: {
    // Replies on static grants: the API callers' inboxes (`allow_responses` lives in one server process's
    // memory, so a turn that outlives a NATS restart could not answer its caller without it) and every
    // service's (the orchestrator already reaches all of `talon.>`). Without `allow_responses` the server
    // keeps no entry per API request (see `allowResponses`).
    publish: [
      'talon.>',
      ...JETSTREAM,
      '_INBOX.>',
      ...SERVICE_NAMES.map((service) => `${serviceInboxPrefix(service)}.>`),
      JETSTREAM_FLOW_CONTROL,
    ],
    subscribe: ['talon.>', `${serviceInboxPrefix('orchestrator')}.>`, ...JETSTREAM],
    allowResponses: false,
    inboxPrefix: serviceInboxPrefix('orchestrator'),
  },
  'skill-service': {
    publish: [...SKILL_SERVICE_SHARED_STATE],
    subscribe: [SUBJECTS.skills('>'), ...serviceBasics('skill-service')],
    allowResponses: true,
    inboxPrefix: serviceInboxPrefix('skill-service'),
  },
  'tool-worker': {
    publish: [
      SUBJECTS.toolAnnounce,
      SUBJECTS.toolWithdraw,
      TOOL_ACK_ANY,
      `${MCP_CREDENTIALS_PREFIX}.>`,
      ...TOOL_RESULT_WRITER,
      ...MCP_DEFINITIONS_READER,
    ],
    subscribe: [
      SUBJECTS.toolCall('orchestrator'),
      SUBJECTS.toolApproval('orchestrator'),
      SUBJECTS.toolCatalogRequest,
      TOOL_CALL_CHECK_ANY,
      SUBJECTS.toolCancel('orchestrator'),
      'talon.mcp.v1.orchestrator.>',
      MCP_AUTHORIZE_SUBJECT,
      ...serviceBasics('tool-worker'),
    ],
    allowResponses: true,
    inboxPrefix: serviceInboxPrefix('tool-worker'),
  },
  'wasm-runner': {
    publish: [
      SUBJECTS.toolAnnounce,
      SUBJECTS.toolWithdraw,
      TOOL_ACK_ANY,
      TOOL_INVOKE_SUBJECT,
      toolBuildEventsSubject('>'),
      ...WASM_RUNNER_SHARED_STATE,
      ...TOOL_RESULT_WRITER,
    ],
    subscribe: [
      SUBJECTS.toolCall('container'),
      SUBJECTS.toolApproval('container'),
      SUBJECTS.toolCatalogRequest,
      TOOL_CALL_CHECK_ANY,
      SUBJECTS.toolCancel('container'),
      'talon.mcp.v1.container.>',
      WASM_DECLARED_SECRETS_SUBJECT,
      ...serviceBasics('wasm-runner'),
    ],
    allowResponses: true,
    inboxPrefix: serviceInboxPrefix('wasm-runner'),
  },
  api: {
    publish: [`${API_PREFIX}.>`],
    subscribe: ['_INBOX.>', 'talon.events.v1.>'],
    allowResponses: false,
    inboxPrefix: '_INBOX',
  },
};
