import { ATTR, inSpan } from '@talon/telemetry';
import type { ToolDefinition, ToolEffect } from '@talon/contracts';
import { ToolFailedError, type Tool, type ToolContext } from '@talon/tool-runtime';
import type { Capabilities } from './capabilities.js';
import { PoolClosedError } from './errors/pool-closed-error.js';
import { GrantSecretsProvider } from './grant-secrets-provider.js';
import type { SecretsProvider } from './secrets-provider.js';
import type { ComponentWorkerPool } from './worker-pool.js';

/** One runnable version of a component tool. */
export interface WasmToolVersion {
  version: string;
  sha256: string;
  pool: ComponentWorkerPool;
  capabilities: Capabilities;
  /** From the component's `schema()`. */
  parameters: Record<string, unknown>;
  /** From the component's `description()`. */
  description: string;
}

/** Options of a component tool. */
export interface WasmToolOptions {
  name: string;
  displayName?: string;
  /** Looked up after the call's own credential grants. */
  fallbackSecrets?: SecretsProvider;
  /** How the catalog lists it: `wasm` (default, from the registry) or `built` (by the tool builder). */
  source?: 'wasm' | 'built';
}

const EFFECTS_NEEDING_APPROVAL: readonly ToolEffect[] = [
  'write_filesystem',
  'delete_filesystem',
  'external_write',
  'financial',
  'spawn_process',
  'modify_extension',
  'modify_approval',
  'modify_budget',
];
const READ_ONLY_EFFECTS: readonly ToolEffect[] = ['read_filesystem', 'network', 'use_secret'];

/**
 * An installed WebAssembly component as a {@link Tool} (domain `container`, source `wasm`). `replace` swaps
 * the version: calls already running finish on the version they started on.
 */
export class WasmTool implements Tool {
  private current: WasmToolVersion;

  constructor(
    private readonly options: WasmToolOptions,
    version: WasmToolVersion,
  ) {
    this.current = version;
  }

  get definition(): ToolDefinition {
    const { capabilities, parameters, description } = this.current;
    const definition: ToolDefinition = {
      name: this.options.name,
      description: description.slice(0, 4096),
      parameters,
      effects: [...capabilities.effects],
      approval: capabilities.effects.some((effect) => EFFECTS_NEEDING_APPROVAL.includes(effect))
        ? 'unless_auto_approved'
        : 'never',
      timeoutMs: capabilities.timeoutMs,
      domain: 'container',
      source: this.options.source ?? 'wasm',
      sensitiveParams: [],
      idempotent: capabilities.effects.every((effect) => READ_ONLY_EFFECTS.includes(effect)),
    };
    if (this.options.displayName) definition.displayName = this.options.displayName;
    if (capabilities.rateLimit) definition.rateLimit = { ...capabilities.rateLimit };
    return definition;
  }

  /** The version new calls run on. */
  get version(): WasmToolVersion {
    return this.current;
  }

  /** Makes `next` the version for new calls and returns the previous one (close its pool to drain it). */
  replace(next: WasmToolVersion): WasmToolVersion {
    const previous = this.current;
    this.current = next;
    return previous;
  }

  async execute(params: Record<string, unknown>, context: ToolContext): Promise<unknown> {
    try {
      return await this.executeOn(this.current, params, context);
    } catch (error) {
      // A call still queued on a version that an upgrade retired runs on the new version instead.
      if (error instanceof PoolClosedError && !this.current.pool.isClosed())
        return this.executeOn(this.current, params, context);
      throw error;
    }
  }

  private async executeOn(
    version: WasmToolVersion,
    params: Record<string, unknown>,
    context: ToolContext,
  ): Promise<unknown> {
    const grants = new GrantSecretsProvider(context.grants);
    const fallback = this.options.fallbackSecrets;
    const secrets: SecretsProvider = {
      get: async (name) => (await grants.get(name)) ?? (await fallback?.get(name)),
    };
    const result = await inSpan(
      `talon.wasm.execute ${this.options.name}`,
      {
        attributes: {
          [ATTR.genAiToolName]: this.options.name,
          [ATTR.callId]: context.callId,
          [ATTR.wasmSha256]: version.sha256,
        },
      },
      () =>
        version.pool.execute({
          params: JSON.stringify(params),
          host: {
            callId: context.callId,
            // Made only when a host import needs it (an HTTP request); the worker is told through onAbort.
            get signal() {
              return context.signal;
            },
            ...(context.onAbort ? { onAbort: context.onAbort.bind(context) } : {}),
            secrets,
            log: context.log,
            sessionId: context.sessionId,
          },
        }),
    );
    if (result.error !== undefined)
      throw new ToolFailedError(`${this.options.name} failed: ${result.error}`, {
        details: { tool: this.options.name },
      });
    const output = result.output ?? '';
    try {
      return JSON.parse(output) as unknown;
    } catch {
      return output;
    }
  }
}
