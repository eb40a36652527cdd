import { randomBytes } from 'node:crypto';
import { mkdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { Type, type Static } from '@sinclair/typebox';
import { Ajv } from 'ajv';
import { InstalledWasmToolRecordSchema, type InstalledWasmToolRecord } from '@talon/contracts';
import { RegistryEntryInvalidError } from './errors/registry-entry-invalid-error.js';
import { ToolAlreadyInstalledError } from './errors/tool-already-installed-error.js';

/** One installed tool as persisted (the record the wasm-runners share, see `@talon/contracts`). */
export const InstalledToolRecordSchema = InstalledWasmToolRecordSchema;
/** A persisted installed tool. */
export type InstalledToolRecord = InstalledWasmToolRecord;

const InstalledStateSchema = Type.Object({
  format: Type.Literal(1),
  tools: Type.Array(InstalledToolRecordSchema),
});
type InstalledState = Static<typeof InstalledStateSchema>;

const validateState = new Ajv({ strict: false }).compile<InstalledState>(InstalledStateSchema);
const STATE_FILE = 'installed-tools.json';

/** Options of {@link InstalledToolsState.put}. */
export interface InstalledToolPutOptions {
  /** Refuse (ToolAlreadyInstalledError) when a record of that name exists, also one another replica wrote. */
  ifAbsent?: boolean;
}

/**
 * Where installed tools are persisted. {@link InstalledToolsStore} keeps them in one runner's folder;
 * {@link SharedInstalledToolsState} keeps them in JetStream for every runner and calls back on changes, so
 * `ToolInstaller.reconcile()` follows them.
 */
export interface InstalledToolsState {
  list(): InstalledToolRecord[];
  get(name: string): InstalledToolRecord | undefined;
  readArtifact(record: InstalledToolRecord): Promise<Uint8Array>;
  /** Saves the artifact (if given) and the record. @throws ToolAlreadyInstalledError with `ifAbsent` */
  put(record: InstalledToolRecord, artifact?: Uint8Array, options?: InstalledToolPutOptions): Promise<void>;
  /** Saves an artifact ahead of the record that will name it (an install uploads while its version starts). */
  putArtifact(sha256: string, artifact: Uint8Array): Promise<void>;
  delete(name: string): Promise<void>;
  /** Deletes an artifact no record refers to any more. */
  pruneArtifact(sha256: string): Promise<void>;
  /** Re-reads the records written by other instances. */
  reload(): Promise<void>;
}

/**
 * Installed tools under a state folder: `installed-tools.json` plus a copy of each artifact under
 * `artifacts/<sha256>.wasm`, so a restart needs neither the registry nor the network. Writes are atomic
 * (temp file + rename) and serialised.
 */
export class InstalledToolsStore implements InstalledToolsState {
  private records = new Map<string, InstalledToolRecord>();
  private writing: Promise<void> = Promise.resolve();

  private constructor(private readonly stateDir: string) {}

  static async open(stateDir: string): Promise<InstalledToolsStore> {
    const store = new InstalledToolsStore(stateDir);
    await mkdir(join(stateDir, 'artifacts'), { recursive: true });
    await store.reload();
    return store;
  }

  async reload(): Promise<void> {
    const path = join(this.stateDir, STATE_FILE);
    let raw: string;
    try {
      raw = await readFile(path, 'utf8');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
      this.records = new Map();
      return;
    }
    let parsed: unknown;
    try {
      parsed = JSON.parse(raw);
    } catch (error) {
      throw new RegistryEntryInvalidError(
        `${path} is not valid JSON; restore it from a backup or delete it to start empty.`,
        { cause: error },
      );
    }
    if (!validateState(parsed))
      throw new RegistryEntryInvalidError(
        `${path} does not match its schema; restore it from a backup or delete it.`,
      );
    this.records = new Map(parsed.tools.map((record) => [record.name, record]));
  }

  list(): InstalledToolRecord[] {
    return [...this.records.values()].sort((a, b) => a.name.localeCompare(b.name));
  }

  get(name: string): InstalledToolRecord | undefined {
    return this.records.get(name);
  }

  /** Where the artifact of a sha256 is kept. */
  artifactPath(sha256: string): string {
    return join(this.stateDir, 'artifacts', `${sha256}.wasm`);
  }

  async readArtifact(record: InstalledToolRecord): Promise<Uint8Array> {
    return readFile(this.artifactPath(record.sha256));
  }

  /** Saves the artifact (if given) and the record. */
  async put(
    record: InstalledToolRecord,
    artifact?: Uint8Array,
    options: InstalledToolPutOptions = {},
  ): Promise<void> {
    if (options.ifAbsent && this.records.has(record.name))
      throw new ToolAlreadyInstalledError(
        `${record.name} is already installed; use upgrade to change its version.`,
      );
    if (artifact) await this.putArtifact(record.sha256, artifact);
    this.records.set(record.name, record);
    await this.persist();
  }

  async putArtifact(sha256: string, artifact: Uint8Array): Promise<void> {
    const path = this.artifactPath(sha256);
    const temporary = temporaryNameFor(path);
    await writeFile(temporary, artifact);
    await rename(temporary, path);
  }

  /** Forgets a tool; its artifact is deleted when no other record uses it. */
  async delete(name: string): Promise<void> {
    const record = this.records.get(name);
    if (!record) return;
    this.records.delete(name);
    await this.persist();
    await this.pruneArtifact(record.sha256);
  }

  /** Deletes an artifact no record refers to any more (after an upgrade). */
  async pruneArtifact(sha256: string): Promise<void> {
    if ([...this.records.values()].some((other) => other.sha256 === sha256)) return;
    await rm(this.artifactPath(sha256), { force: true });
  }

  private persist(): Promise<void> {
    const state: InstalledState = { format: 1, tools: this.list() };
    const path = join(this.stateDir, STATE_FILE);
    const next = this.writing.then(async () => {
      const temporary = temporaryNameFor(path);
      await writeFile(temporary, `${JSON.stringify(state, null, 2)}\n`);
      await rename(temporary, path);
    });
    this.writing = next.catch(() => undefined);
    return next;
  }
}

/** A temporary name next to `path` no other process picks (containers all run as pid 1). */
export function temporaryNameFor(path: string): string {
  return `${path}.${randomBytes(6).toString('hex')}.tmp`;
}
