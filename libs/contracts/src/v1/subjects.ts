/**
 * NATS subject names, versioned. Every service subscribes through a queue group so replicas share load;
 * health and catalog subjects are subscribed without a queue group so that every instance answers a
 * scatter request.
 */

/** The prefix of the orchestrator's public API. A method `system.status` is `talon.api.v1.system.status`. */
export const API_PREFIX = 'talon.api.v1';

/** Builds the NATS subject of a public API method. */
export function apiSubject(method: string): string {
  return `${API_PREFIX}.${method}`;
}

/** The services that make up Talon. */
export const SERVICE_NAMES = ['orchestrator', 'skill-service', 'tool-worker', 'wasm-runner'] as const;
/** One of the four Talon services. */
export type ServiceName = (typeof SERVICE_NAMES)[number];

/** The queue group each service joins. */
export const QUEUE_GROUPS: Readonly<Record<ServiceName, string>> = {
  orchestrator: 'orchestrators',
  'skill-service': 'skill-services',
  'tool-worker': 'tool-workers',
  'wasm-runner': 'wasm-runners',
};

/** Subjects used between services (not part of the public API). */
export const SUBJECTS = {
  /** Scatter: every instance of a service answers with a {@link HealthReply}. */
  health: (service: ServiceName) => `talon.health.v1.${service}`,
  /** A no-op request answered by one instance of the service (queue group). */
  ping: (service: ServiceName) => `talon.ping.v1.${service}`,
  /** Call a tool on its domain's workers (queue group). */
  toolCall: (domain: string) => `talon.tools.v1.call.${domain}`,
  /** Ask a tool's domain what approval one call needs, and why (queue group): {@link ToolApprovalRequest}. */
  toolApproval: (domain: string) => `talon.tools.v1.approval.${domain}`,
  /** Scatter: every worker instance answers with a catalog announcement. */
  toolCatalogRequest: 'talon.tools.v1.catalog.request',
  /** Workers publish their tool announcements here on start, on change and as a heartbeat. */
  toolAnnounce: 'talon.tools.v1.catalog.announce',
  /** A worker publishes here when it leaves (drain). */
  toolWithdraw: 'talon.tools.v1.catalog.withdraw',
  /** Skill-service methods, e.g. `talon.skills.v1.select`. */
  skills: (method: string) => `talon.skills.v1.${method}`,
  /** Session event stream published by the orchestrator. */
  sessionEvents: (sessionId: string) => `talon.events.v1.session.${sessionId}`,
  /** Job event stream published by the orchestrator running the job (events are stored too). */
  jobEvents: (jobId: string) => `talon.events.v1.job.${jobId}`,
  /** A nudge to every orchestrator that a job was enqueued or resolved (they claim at once instead of next tick). */
  jobsWake: 'talon.jobs.v1.wake',
  /**
   * Asks one worker instance which of the listed calls it still holds ({@link ToolCallCheckRequest} →
   * {@link ToolCallCheckReply}); the orchestrator's failover probe. No queue group: one instance, one subject.
   */
  toolCallCheck: (instanceId: string) => `talon.tools.v1.held.${instanceSubjectToken(instanceId)}`,
  /**
   * Where a worker acknowledges one tool call: the requester's subject (`talon.tools.v1.ack.<requester>`)
   * plus the call's own token. The request names it (`ack`, {@link TOOL_ACK_SUBJECT_PATTERN}).
   */
  toolAck: (requester: string) => `${TOOL_ACK_PREFIX}.${requester}`,
  /** Every worker of a domain hears a cancel for one call id ({@link ToolCallCancel}); the holder aborts it. */
  toolCancel: (domain: string) => `talon.tools.v1.cancel.${domain}`,
  /** Scatter to every orchestrator: stop the running turn of a session ({@link TurnCancelRequest}). */
  turnCancel: 'talon.turns.v1.cancel',
} as const;

/** The subjects of tool-call acknowledgements: `talon.tools.v1.ack.<requester>.<call token>`. */
export const TOOL_ACK_PREFIX = 'talon.tools.v1.ack';

/** A tool call's `ack` subject: the requester's and the call's token, each one subject token. */
export const TOOL_ACK_SUBJECT_PATTERN =
  '^talon\\.tools\\.v1\\.ack\\.[A-Za-z0-9_-]{1,64}\\.[A-Za-z0-9_-]{1,64}$';

/** An instance id as one subject token: anything but letters, digits, `_` and `-` becomes `_`. */
export function instanceSubjectToken(instanceId: string): string {
  return instanceId.replace(/[^A-Za-z0-9_-]/g, '_');
}

/** Message headers that travel with every request. */
export const HEADERS = {
  /** A unique id of one call, echoed in logs and audit records. */
  callId: 'talon-call-id',
  /** W3C trace context. */
  traceparent: 'traceparent',
  /** Deadline of the call, epoch milliseconds; a worker does not start work past it. */
  deadline: 'talon-deadline',
  /** The caller's API token on `talon.api.v1.>` requests (never logged, never forwarded). */
  token: 'talon-token',
  /** Set (to the instance id) on a worker's acknowledgement of a tool call, sent on the call's `ack` subject. */
  ack: 'talon-ack',
} as const;
