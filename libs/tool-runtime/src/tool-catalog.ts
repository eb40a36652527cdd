import type { ToolAnnouncement, ToolDefinition } from '@talon/contracts';
import type { ToolLookup } from './tool-registry.js';
import type { Tool } from './tool.js';

/** One tool in the live catalog and the instances that can run it. */
export interface CatalogEntry {
  readonly definition: ToolDefinition;
  /** Where it runs: `local` for tools the catalog's own process executes. */
  readonly location: 'local' | 'remote';
  /** Instance id → epoch ms after which the instance counts as gone. */
  readonly instances: ReadonlyMap<string, number>;
  /** The local implementation, when `location` is `local`. */
  readonly tool?: Tool;
}

/** A tool an instance announced but the catalog refused (a protected or taken name). */
export interface CatalogConflict {
  instanceId: string;
  name: string;
  reason: 'protected' | 'taken';
}

/** Called after every change of the visible tool set. */
export type CatalogListener = (change: { added: string[]; removed: string[]; version: number }) => void;

interface MutableEntry {
  definition: ToolDefinition;
  location: 'local' | 'remote';
  instances: Map<string, number>;
  tool?: Tool;
}

/**
 * The live catalog the orchestrator keeps from worker announcements. Each announcement replaces what
 * that instance offers; an instance that stops announcing drops out at its TTL. Built-in names are
 * protected: a dynamic tool announced under a built-in's name (or a name another source holds) is
 * refused and listed as a conflict, never silently merged.
 */
export class ToolCatalog implements ToolLookup {
  private readonly entries = new Map<string, MutableEntry>();
  private readonly offers = new Map<string, Set<string>>();
  private readonly conflictList = new Map<string, CatalogConflict>();
  private readonly listeners = new Set<CatalogListener>();
  private changeVersion = 0;

  /** Increases on every change of the visible tool set. */
  get version(): number {
    return this.changeVersion;
  }

  get(name: string): CatalogEntry | undefined {
    return this.entries.get(name);
  }

  list(): CatalogEntry[] {
    return [...this.entries.values()].sort((a, b) => a.definition.name.localeCompare(b.definition.name));
  }

  conflicts(): CatalogConflict[] {
    return [...this.conflictList.values()];
  }

  onChange(listener: CatalogListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Adds a tool this process runs itself (control-plane tools). Its name is protected like a built-in. */
  registerLocal(tool: Tool): void {
    this.entries.set(tool.definition.name, {
      definition: tool.definition,
      location: 'local',
      instances: new Map(),
      tool,
    });
    this.emit([tool.definition.name], []);
  }

  /** Applies one instance's announcement: its tool set replaces what it offered before. */
  announce(announcement: ToolAnnouncement, now = Date.now()): void {
    const { instanceId } = announcement;
    const expiresAt = now + announcement.ttlMs;
    const previous = this.offers.get(instanceId) ?? new Set<string>();
    const next = new Set<string>();
    const added: string[] = [];
    for (const key of [...this.conflictList.keys()])
      if (key.startsWith(`${instanceId}\u0000`)) this.conflictList.delete(key);
    for (const definition of announcement.tools) {
      const existing = this.entries.get(definition.name);
      const refusal = existing ? this.refusal(existing, definition) : undefined;
      if (refusal) {
        this.conflictList.set(`${instanceId}\u0000${definition.name}`, {
          instanceId,
          name: definition.name,
          reason: refusal,
        });
        continue;
      }
      next.add(definition.name);
      if (existing) {
        existing.definition = definition;
        existing.instances.set(instanceId, expiresAt);
      } else {
        this.entries.set(definition.name, {
          definition,
          location: 'remote',
          instances: new Map([[instanceId, expiresAt]]),
        });
        added.push(definition.name);
      }
    }
    this.offers.set(instanceId, next);
    const removed = [...previous]
      .filter((name) => !next.has(name))
      .filter((name) => this.dropInstance(name, instanceId));
    if (added.length || removed.length) this.emit(added, removed);
  }

  /** An instance left (drained): its tools drop out now instead of at the TTL. */
  withdraw(instanceId: string): void {
    const offered = this.offers.get(instanceId);
    if (!offered) return;
    this.offers.delete(instanceId);
    const removed = [...offered].filter((name) => this.dropInstance(name, instanceId));
    if (removed.length) this.emit([], removed);
  }

  /** Drops instances whose TTL passed; returns their ids. */
  expire(now = Date.now()): string[] {
    const gone = new Set<string>();
    for (const entry of this.entries.values()) {
      for (const [instanceId, expiresAt] of entry.instances) if (expiresAt <= now) gone.add(instanceId);
    }
    for (const instanceId of gone) this.withdraw(instanceId);
    return [...gone];
  }

  /** Instances that currently offer a tool. */
  instancesOf(name: string): string[] {
    return [...(this.entries.get(name)?.instances.keys() ?? [])];
  }

  private refusal(existing: MutableEntry, incoming: ToolDefinition): CatalogConflict['reason'] | undefined {
    if (existing.location === 'local') return 'protected';
    const current = existing.definition;
    if (current.source === 'builtin' && incoming.source !== 'builtin') return 'protected';
    if (current.source !== 'builtin' && incoming.source === 'builtin') return undefined;
    // Replicas of the same source and domain offer the same tool; anything else is a clash.
    if (current.source !== incoming.source || current.domain !== incoming.domain) return 'taken';
    return undefined;
  }

  /** Removes one instance from a tool; returns true when the tool is gone from the catalog. */
  private dropInstance(name: string, instanceId: string): boolean {
    const entry = this.entries.get(name);
    if (!entry || entry.location === 'local') return false;
    entry.instances.delete(instanceId);
    if (entry.instances.size > 0) return false;
    this.entries.delete(name);
    return true;
  }

  private emit(added: string[], removed: string[]): void {
    this.changeVersion++;
    for (const listener of this.listeners) listener({ added, removed, version: this.changeVersion });
  }
}
