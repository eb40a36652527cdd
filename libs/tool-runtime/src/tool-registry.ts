import type { ToolDefinition } from '@talon/contracts';
import { ToolNameConflictError } from './errors/tool-name-conflict-error.js';
import { ParamValidator } from './param-validator.js';
import type { Tool } from './tool.js';
import { untilChanged } from './until-changed.js';
import { assertValidToolDefinition } from './tool-definition-check.js';
import { assertValidToolName } from './tool-name.js';

/** Anything the pipeline can look a tool up in: the registry, or an orchestrator's catalog of remote definitions. */
export interface ToolLookup {
  get(name: string): { readonly definition: ToolDefinition } | undefined;
}

/** Options of {@link ToolRegistry}. */
export interface ToolRegistryOptions {
  /** Compiles each tool's parameter schema at registration; share it with the pipeline. Default: a new one. */
  validator?: ParamValidator;
  /**
   * Names protected like built-ins although no tool of that name is registered here (e.g. control-plane
   * tools the orchestrator serves itself).
   */
  reservedNames?: Iterable<string>;
}

/** Options of {@link ToolRegistry.register}. */
export interface RegisterOptions {
  /** Replace a registered non-built-in tool of the same name (hot upgrade). Built-ins are never replaced. */
  replace?: boolean;
}

/** Called after every change with the affected name. */
export type ToolRegistryListener = (change: { kind: 'registered' | 'unregistered'; name: string }) => void;

/**
 * The tools one process can run. Built-ins register first and their names are protected: a dynamic tool
 * (wasm, mcp, installed) whose name is protected or already taken is refused with
 * {@link ToolNameConflictError}, never silently dropped or overwritten. Parameter schemas compile at
 * registration, so a broken schema fails here and not at call time.
 */
export class ToolRegistry implements ToolLookup {
  readonly validator: ParamValidator;
  private readonly tools = new Map<string, Tool>();
  private readonly protectedNames: Set<string>;
  private readonly listeners = new Set<ToolRegistryListener>();

  constructor(options: ToolRegistryOptions = {}) {
    this.validator = options.validator ?? new ParamValidator();
    this.protectedNames = new Set(options.reservedNames ?? []);
  }

  /**
   * Adds a tool; throws InvalidToolNameError, InvalidToolDefinitionError, InvalidToolSchemaError or
   * ToolNameConflictError.
   */
  register(tool: Tool, options: RegisterOptions = {}): void {
    const { name, source, parameters } = tool.definition;
    assertValidToolName(name);
    assertValidToolDefinition(tool.definition);
    const isBuiltin = source === 'builtin';
    const existing = this.tools.get(name);
    if (!isBuiltin && this.protectedNames.has(name)) throw new ToolNameConflictError(name, 'protected');
    if (existing) {
      if (existing.definition.source === 'builtin') throw new ToolNameConflictError(name, 'protected');
      if (!options.replace || isBuiltin) throw new ToolNameConflictError(name, 'taken');
    }
    this.validator.compile(name, parameters);
    this.tools.set(name, tool);
    if (isBuiltin) this.protectedNames.add(name);
    this.emit({ kind: 'registered', name });
  }

  /**
   * Removes a tool; returns whether one was there. A built-in is removed only with `force` (and its name
   * stays protected); otherwise that throws {@link ToolNameConflictError} with reason `protected`.
   */
  unregister(name: string, options: { force?: boolean } = {}): boolean {
    const existing = this.tools.get(name);
    if (!existing) return false;
    if (existing.definition.source === 'builtin' && !options.force) {
      throw new ToolNameConflictError(
        name,
        'protected',
        `Tool "${name}" is built in and cannot be removed without force.`,
      );
    }
    this.tools.delete(name);
    this.emit({ kind: 'unregistered', name });
    return true;
  }

  get(name: string): Tool | undefined {
    return this.tools.get(name);
  }

  has(name: string): boolean {
    return this.tools.has(name);
  }

  /** Whether `name` is protected (a built-in's or reserved). */
  isProtected(name: string): boolean {
    return this.protectedNames.has(name);
  }

  /** Every registered tool, in registration order. */
  list(): Tool[] {
    return [...this.tools.values()];
  }

  /** Every registered tool's definition, ready to announce. */
  definitions(): ToolDefinition[] {
    return this.list().map((tool) => tool.definition);
  }

  get size(): number {
    return this.tools.size;
  }

  /**
   * Resolves `true` once a tool named `name` is registered (at once when it is), `false` after `waitMs`
   * without one. For a call that arrives while the tool is still on its way here (another replica's
   * install or listing, shared and followed).
   */
  whenRegistered(name: string, waitMs: number): Promise<boolean> {
    return untilChanged(
      (listener) => this.onChange(listener),
      () => this.tools.has(name),
      waitMs,
    );
  }

  /** Subscribes to changes (e.g. to re-announce the catalog); returns the unsubscribe function. */
  onChange(listener: ToolRegistryListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  private emit(change: Parameters<ToolRegistryListener>[0]): void {
    for (const listener of this.listeners) listener(change);
  }
}
