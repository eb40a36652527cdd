import type { ToolBuildEvent, ToolBuildReport, ToolBuildRequest, ToolBuildStage } from '@talon/contracts';
import { collectLlmStream, type LlmMessage, type LlmProvider } from '@talon/llm';
import { ToolNameConflictError } from '@talon/tool-runtime';
import { parseCapabilities, type CapabilitiesFile } from '../capabilities.js';
import { sha256Hex } from '../component-compiler.js';
import type { ComponentToolLoader } from '../component-tool-loader.js';
import { BuildInProgressError } from '../errors/build-in-progress-error.js';
import type { WasmToolVersion } from '../wasm-tool.js';
import type { BuiltToolsStore } from './built-tools-store.js';
import type { CompileOutcome } from './component-compile-process.js';
import { deriveCapabilities, type DerivedCapabilities } from './derived-capabilities.js';
import { runExamples } from './example-runner.js';
import { DEFAULT_MAX_SOURCE_BYTES, extractSource, sourceProblems } from './generated-source.js';
import { schemaProblems } from './parameter-schema-check.js';
import { toolBuilderFeedback, toolBuilderSystemPrompt, toolBuilderTask } from './tool-builder-prompt.js';

/** The WIT version generated tools are built against. */
export const BUILT_TOOL_WIT_VERSION = '0.1.0';
/** Default model rounds of a build. */
export const DEFAULT_BUILD_ROUNDS = 3;

/** What the builder needs. */
export interface ToolBuilderOptions {
  /** The configured model (any provider; the scripted one in tests). */
  model: LlmProvider;
  /** Text of `wit/talon-tool.wit`, quoted in the system prompt. */
  wit: string;
  /** Compiles JavaScript to a component (see `compileInChildProcess`). */
  compile(source: string): Promise<CompileOutcome>;
  /** Loads candidates into the real sandbox (worker pool with limits) to read schema() and run the examples. */
  loader: ComponentToolLoader;
  store: BuiltToolsStore;
  /** Why a name may not be built: `protected` (a built-in) or `taken` (a tool of another source). */
  nameConflict?(name: string): 'protected' | 'taken' | undefined;
  /** Default {@link DEFAULT_MAX_SOURCE_BYTES}. */
  maxSourceBytes?: number;
}

/** Per-build hooks. */
export interface ToolBuildHooks {
  onEvent?(event: ToolBuildEvent): void;
  signal?: AbortSignal;
}

interface Candidate {
  source: string;
  bytes: Uint8Array;
  derived: DerivedCapabilities;
  witVersion?: string;
}

/**
 * Builds a tool from a description: asks the model for JavaScript against the talon:tool world, checks the source
 * (size, imports, exports), derives the capabilities it needs and refuses any wider than requested, compiles it,
 * loads it into the sandbox (schema() must be a JSON Schema object), runs the examples there, and feeds every
 * problem back to the model for the next round (up to `max_rounds`). The finished build is staged with its
 * registry entry (sha256, wit_version) for a person to approve; nothing is installed here. One build per name at a
 * time: a second one is refused with BUILD_IN_PROGRESS.
 */
export class ToolBuilder {
  private readonly running = new Set<string>();

  constructor(private readonly options: ToolBuilderOptions) {}

  /** @throws ToolNameConflictError, BuildInProgressError, CapabilitiesInvalidError (requested capabilities) */
  async build(request: ToolBuildRequest, hooks: ToolBuildHooks = {}): Promise<ToolBuildReport> {
    const conflict = this.options.nameConflict?.(request.name);
    if (conflict) throw new ToolNameConflictError(request.name, conflict);
    const requested = (request.capabilities ?? { effects: [] }) as CapabilitiesFile;
    parseCapabilities(requested, 'the requested capabilities');
    if (this.running.has(request.name)) throw new BuildInProgressError(request.name);
    this.running.add(request.name);
    try {
      return await this.run(request, requested, hooks);
    } finally {
      this.running.delete(request.name);
    }
  }

  private async run(
    request: ToolBuildRequest,
    requested: CapabilitiesFile,
    hooks: ToolBuildHooks,
  ): Promise<ToolBuildReport> {
    const version = await this.options.store.nextVersion(request.name);
    const maxBytes = this.options.maxSourceBytes ?? DEFAULT_MAX_SOURCE_BYTES;
    const report: ToolBuildReport = {
      build_id: `${request.name}@${version}`,
      name: request.name,
      version,
      status: 'failed',
      rounds: [],
      build_log: [],
      examples: [],
      requested_capabilities: requested as Record<string, unknown>,
    };
    const emit = (stage: ToolBuildStage, round: number, message: string, durationMs?: number) => {
      report.build_log.push(`[round ${round}] ${stage}: ${message}`);
      hooks.onEvent?.({
        buildId: report.build_id,
        name: request.name,
        stage,
        round,
        message,
        ...(durationMs === undefined ? {} : { durationMs: Math.round(durationMs) }),
        at: new Date().toISOString(),
      });
    };
    const messages: LlmMessage[] = [
      { role: 'system', content: toolBuilderSystemPrompt(this.options.wit, maxBytes) },
      { role: 'user', content: toolBuilderTask(request) },
    ];
    emit(
      'started',
      0,
      `building ${report.build_id} in up to ${request.max_rounds ?? DEFAULT_BUILD_ROUNDS} rounds`,
    );
    const rounds = request.max_rounds ?? DEFAULT_BUILD_ROUNDS;
    let candidate: Candidate | undefined;
    for (let round = 1; round <= rounds && !candidate; round++) {
      const started = performance.now();
      const problems: string[] = [];
      candidate = await this.round(request, requested, round, messages, problems, report, emit, hooks);
      report.rounds.push({ round, problems, durationMs: Math.round(performance.now() - started) });
      if (!candidate) {
        emit('round_failed', round, problems.join(' | '));
        messages.push({ role: 'user', content: toolBuilderFeedback(round, problems) });
      }
    }
    if (!candidate) {
      report.reason = `no round passed every check in ${rounds} rounds: ${report.rounds.at(-1)?.problems.join('; ')}`;
      emit('failed', rounds, report.reason);
      await this.options.store.stage(report, { source: report.source ?? '' });
      return report;
    }
    const sha256 = sha256Hex(candidate.bytes);
    Object.assign(report, {
      status: 'ready',
      sha256,
      wit_version: candidate.witVersion ?? BUILT_TOOL_WIT_VERSION,
      size_bytes: candidate.bytes.length,
      next: `A person must approve the source and capabilities: call tools.installBuild (tool_build_install) with {"build_id": "${report.build_id}", "sha256": "${sha256}", "capabilities": <the capabilities above>}.`,
    });
    emit('ready', report.rounds.length, `sha256 ${sha256}; waiting for a person's approval`);
    await this.options.store.stage(report, {
      source: candidate.source,
      bytes: candidate.bytes,
      capabilities: report.capabilities!,
      entry: {
        name: request.name,
        display_name: request.name,
        version,
        wit_version: report.wit_version!,
        description: request.description.slice(0, 4096),
        keywords: [],
        source: 'source.js',
        artifact: { url: `${request.name}.wasm`, sha256 },
        capabilities: 'capabilities.json',
        auth: {
          required: (report.capabilities as CapabilitiesFile).secrets !== undefined,
          secrets: (report.capabilities as CapabilitiesFile).secrets ?? [],
          summary: 'Built by tool_build; see its report for the capabilities.',
        },
        tags: ['built'],
      },
    });
    return report;
  }

  /** One round: model → source checks → capabilities → compile → schema → examples. Undefined when it failed. */
  private async round(
    request: ToolBuildRequest,
    requested: CapabilitiesFile,
    round: number,
    messages: LlmMessage[],
    problems: string[],
    report: ToolBuildReport,
    emit: (stage: ToolBuildStage, round: number, message: string, durationMs?: number) => void,
    hooks: ToolBuildHooks,
  ): Promise<Candidate | undefined> {
    let t0 = performance.now();
    const reply = await collectLlmStream(this.options.model.stream({ messages }, { signal: hooks.signal }));
    messages.push({ role: 'assistant', content: reply.text });
    emit(
      'model',
      round,
      `${reply.text.length} characters from ${this.options.model.name}`,
      performance.now() - t0,
    );
    const source = extractSource(reply.text);
    if (!source) {
      problems.push('the answer held no JavaScript module');
      return undefined;
    }
    report.source = source;
    problems.push(...sourceProblems(source, this.options.maxSourceBytes));
    emit('source', round, problems.length ? problems.join(' | ') : `${Buffer.byteLength(source)} bytes`);
    if (problems.length) return undefined;

    const derived = deriveCapabilities(source, requested);
    report.needs = derived.needs;
    report.capabilities = derived.capabilities as Record<string, unknown>;
    emit(
      'capabilities',
      round,
      derived.refused.length
        ? `refused: ${derived.refused.join(' | ')}`
        : JSON.stringify(derived.capabilities),
    );
    if (derived.refused.length) {
      problems.push(...derived.refused.map((reason) => `capabilities refused: ${reason}`));
      return undefined;
    }

    t0 = performance.now();
    const compiled = await this.options.compile(source);
    emit(
      'compile',
      round,
      compiled.ok ? `${compiled.bytes.length} bytes` : compiled.error,
      performance.now() - t0,
    );
    if (!compiled.ok) {
      problems.push(compiled.error);
      return undefined;
    }

    t0 = performance.now();
    let version: (WasmToolVersion & { witVersion?: string }) | undefined;
    try {
      version = await this.options.loader.loadVersion(
        {
          bytes: compiled.bytes,
          capabilities: parseCapabilities(derived.capabilities),
          version: report.version,
        },
        request.name,
      );
      problems.push(...schemaProblems(version.parameters));
    } catch (error) {
      problems.push(
        `the component could not be loaded: ${error instanceof Error ? error.message : String(error)}`,
      );
    }
    emit(
      'schema',
      round,
      problems.length ? problems.join(' | ') : 'schema() is a JSON Schema object',
      performance.now() - t0,
    );
    if (!version || problems.length) {
      await version?.pool.close();
      return undefined;
    }
    try {
      t0 = performance.now();
      const tool = this.options.loader.toolFor(request.name, version);
      report.examples = await runExamples(tool, request.examples);
      const failing = report.examples.filter((example) => !example.ok);
      emit(
        'examples',
        round,
        `${report.examples.length - failing.length}/${report.examples.length} passed`,
        performance.now() - t0,
      );
      for (const [index, example] of report.examples.entries())
        if (!example.ok)
          problems.push(
            `example ${index + 1} (params ${JSON.stringify(example.params)}) failed: ${example.error}`,
          );
    } catch (error) {
      problems.push(
        `the tool definition is invalid: ${error instanceof Error ? error.message : String(error)}`,
      );
    } finally {
      await version.pool.close();
    }
    if (problems.length) return undefined;
    return { source, bytes: compiled.bytes, derived, witVersion: version.witVersion };
  }
}
