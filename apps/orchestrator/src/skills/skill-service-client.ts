import {
  SUBJECTS,
  type ActiveSkill,
  type AttenuateRequest,
  type AttenuateResult,
  type AttenuationSkill,
  type DiscoveryReport,
  type SelectRequest,
  type SelectResult,
  type SkillInstallRequest,
  type SkillInstallResult,
  type SkillListRequest,
  type SkillListResult,
  type SkillLoadRequest,
  type SkillLoadResult,
  type SkillReadFileRequest,
  type SkillReadFileResult,
  type SkillRemoveResult,
  type SkillSearchRequest,
  type SkillSearchResult,
  type SkillTriggerTable,
  type ToolDefinition,
} from '@talon/contracts';
import type { NatsRequester } from '@talon/service-runtime';

/** Time allowed for a skill-service call that only reads (list, select, attenuate, …). */
export const DEFAULT_SKILL_CALL_TIMEOUT_MS = 5_000;
/** Time allowed for an install, which may download the SKILL.md (the installer's own limit is 10 s). */
export const DEFAULT_SKILL_INSTALL_TIMEOUT_MS = 15_000;

/** Per-call options: deadline, cancellation and the ids that travel in the headers. */
export interface SkillCallOptions {
  timeoutMs?: number;
  signal?: AbortSignal;
  callId?: string;
  traceparent?: string;
}

/** Options of {@link SkillServiceClient.select}. */
export type SelectOptions = Omit<SelectRequest, 'message'> & SkillCallOptions;

/** Options of the client. */
export interface SkillServiceClientOptions {
  /** Default {@link DEFAULT_SKILL_CALL_TIMEOUT_MS}. */
  timeoutMs?: number;
  /** Default {@link DEFAULT_SKILL_INSTALL_TIMEOUT_MS}. */
  installTimeoutMs?: number;
}

/**
 * The skill-service as the orchestrator sees it: one method per `talon.skills.v1.*` subject, each with an
 * explicit deadline. A stopped skill-service gives NO_RESPONDERS at once, a stuck one TIMEOUT; the
 * service's own errors arrive typed (SCHEMA_VIOLATION, NOT_FOUND, INTEGRITY_MISMATCH, …).
 */
export class SkillServiceClient {
  private readonly timeoutMs: number;
  private readonly installTimeoutMs: number;

  constructor(
    private readonly requester: NatsRequester,
    options: SkillServiceClientOptions = {},
  ) {
    this.timeoutMs = options.timeoutMs ?? DEFAULT_SKILL_CALL_TIMEOUT_MS;
    this.installTimeoutMs = options.installTimeoutMs ?? DEFAULT_SKILL_INSTALL_TIMEOUT_MS;
  }

  /** The skills that apply to a message, with their scores, reasons and injection blocks. */
  select(message: string, options: SelectOptions = {}): Promise<SelectResult> {
    const { timeoutMs, signal, callId, traceparent, ...rest } = options;
    return this.call('select', { message, ...rest }, { timeoutMs, signal, callId, traceparent });
  }

  /** The tools a turn may see given its active skills; only what attenuation needs of each skill is sent. */
  attenuate(
    activeSkills: readonly (ActiveSkill | AttenuationSkill)[],
    tools: readonly ToolDefinition[],
    options: SkillCallOptions = {},
  ): Promise<AttenuateResult> {
    const request: AttenuateRequest = {
      activeSkills: activeSkills.map(({ name, trust, allowedTools }) => ({
        name,
        trust,
        ...(allowedTools ? { allowedTools: [...allowedTools] } : {}),
      })),
      tools: [...tools],
    };
    return this.call('attenuate', request, options);
  }

  list(request: SkillListRequest = {}, options: SkillCallOptions = {}): Promise<SkillListResult> {
    return this.call('list', request, options);
  }

  search(request: SkillSearchRequest, options: SkillCallOptions = {}): Promise<SkillSearchResult> {
    return this.call('search', request, options);
  }

  install(request: SkillInstallRequest, options: SkillCallOptions = {}): Promise<SkillInstallResult> {
    return this.call('install', request, { timeoutMs: this.installTimeoutMs, ...options });
  }

  remove(name: string, options: SkillCallOptions = {}): Promise<SkillRemoveResult> {
    return this.call('remove', { name }, options);
  }

  /** A skill for the model (`skill_load`): rendered with its parameters, with the files of its folder. */
  load(request: SkillLoadRequest, options: SkillCallOptions = {}): Promise<SkillLoadResult> {
    return this.call('load', request, options);
  }

  /** One text file of a skill's folder (`skill_read_file`), confined to the folder. */
  readFile(request: SkillReadFileRequest, options: SkillCallOptions = {}): Promise<SkillReadFileResult> {
    return this.call('readFile', request, options);
  }

  /** Command, schedule and webhook routes of the eligible skills. */
  triggers(options: SkillCallOptions = {}): Promise<SkillTriggerTable> {
    return this.call('triggers', {}, options);
  }

  /** The full discovery report (dirs, skills, rejected and shadowed files). */
  report(options: SkillCallOptions = {}): Promise<DiscoveryReport> {
    return this.call('report', {}, options);
  }

  private async call<T>(method: string, payload: unknown, options: SkillCallOptions): Promise<T> {
    const { signal } = options;
    signal?.throwIfAborted();
    const request = this.requester.request<T>(SUBJECTS.skills(method), payload, {
      timeoutMs: options.timeoutMs ?? this.timeoutMs,
      ...(options.callId ? { callId: options.callId } : {}),
      ...(options.traceparent ? { traceparent: options.traceparent } : {}),
    });
    if (!signal) return request;
    // NATS has no cancel for a request in flight: the caller stops waiting, the reply is dropped.
    let onAbort!: () => void;
    const aborted = new Promise<never>((_, reject) => {
      onAbort = () => reject(signal.reason);
      signal.addEventListener('abort', onAbort, { once: true });
    });
    try {
      return await Promise.race([request, aborted]);
    } finally {
      signal.removeEventListener('abort', onAbort);
    }
  }
}
