import { readFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import {
  DEFAULT_MAX_ARTIFACT_BYTES,
  fetchArtifactDownloader,
  readArtifact,
  type ArtifactDownloader,
} from './artifact-source.js';
import { parseCapabilities } from './capabilities.js';
import { sha256Hex } from './component-compiler.js';
import type { ComponentToolLoader } from './component-tool-loader.js';
import { CapabilitiesInvalidError } from './errors/capabilities-invalid-error.js';
import { IntegrityMismatchError } from './errors/integrity-mismatch-error.js';
import { ToolNotInstalledError } from './errors/tool-not-installed-error.js';
import type { InstalledToolRecord } from './installed-tools-store.js';
import type { LocatedRegistryEntry, ToolPackageRegistry } from './tool-package-registry.js';
import type { WasmTool, WasmToolVersion } from './wasm-tool.js';

/** WIT versions of `talon:tool` this host implements. */
export const SUPPORTED_WIT_VERSIONS: readonly string[] = ['0.1.0'];

/** How the catalog lists an installed tool. */
export function toolSource(record: InstalledToolRecord): 'wasm' | 'built' {
  return record.origin === 'built' ? 'built' : 'wasm';
}

/** A version read, verified and started, not yet registered. */
export interface PreparedVersion {
  version: WasmToolVersion;
  /** A tool over the new version, its definition already checked. */
  tool: WasmTool;
  record: InstalledToolRecord;
  bytes: Uint8Array;
}

/** What the preparer needs (a subset of the installer's options). */
export interface ToolVersionPreparerOptions {
  registry: ToolPackageRegistry;
  loader: ComponentToolLoader;
  supportedWitVersions?: readonly string[];
  download?: ArtifactDownloader;
  maxArtifactBytes?: number;
  toolConfig?: Readonly<Record<string, Record<string, unknown>>>;
}

/**
 * Turns a registry entry into a running, verified version: WIT version supported, artifact read within its
 * byte cap, sha256 equal to the entry's, capabilities valid, imports allowed, the WIT version the component
 * really imports equal to the declared one, and a valid tool definition.
 */
export class ToolVersionPreparer {
  constructor(private readonly options: ToolVersionPreparerOptions) {}

  /** The given entry, or the registry's entry of that name. @throws ToolNotInstalledError */
  locate(name: string, given?: LocatedRegistryEntry): LocatedRegistryEntry {
    const located = given ?? this.options.registry.get(name);
    if (!located) throw new ToolNotInstalledError(`No tool named ${name} in the registry; try tool_search.`);
    if (located.entry.name !== name)
      throw new IntegrityMismatchError(`The registry entry is for ${located.entry.name}, not ${name}.`);
    return located;
  }

  /**
   * Reads, verifies and starts a version. `alongside` runs once the artifact is verified, while the version
   * starts (an install uploads the artifact meanwhile); both must succeed.
   * @throws IntegrityMismatchError, ForbiddenImportError, CapabilitiesInvalidError, ArtifactTooLargeError
   */
  async prepare(
    name: string,
    given?: LocatedRegistryEntry,
    alongside?: (record: InstalledToolRecord, bytes: Uint8Array) => Promise<void>,
  ): Promise<PreparedVersion> {
    const { entry, baseDir, origin } = this.locate(name, given);
    const supported = this.options.supportedWitVersions ?? SUPPORTED_WIT_VERSIONS;
    if (!supported.includes(entry.wit_version)) {
      throw new IntegrityMismatchError(
        `${name} targets talon:tool ${entry.wit_version}; this host implements ${supported.join(', ')}. Install a version built for it.`,
        {
          details: { expected: supported, actual: entry.wit_version, check: 'wit_version' },
        },
      );
    }
    const bytes = await readArtifact(
      entry.artifact.url,
      baseDir,
      this.options.maxArtifactBytes ?? DEFAULT_MAX_ARTIFACT_BYTES,
      this.options.download ?? fetchArtifactDownloader,
    );
    const actual = sha256Hex(bytes);
    if (actual !== entry.artifact.sha256) {
      throw new IntegrityMismatchError(
        `The artifact of ${name} has sha256 ${actual}, but the registry says ${entry.artifact.sha256}; refusing to install it.`,
        {
          details: { expected: entry.artifact.sha256, actual, check: 'sha256' },
        },
      );
    }
    const capabilities =
      typeof entry.capabilities === 'string'
        ? await this.readCapabilitiesFile(resolve(baseDir, entry.capabilities))
        : entry.capabilities;
    const record: InstalledToolRecord = {
      name,
      display_name: entry.display_name,
      version: entry.version,
      wit_version: entry.wit_version,
      sha256: actual,
      capabilities,
      source_url: entry.artifact.url,
      installed_at: new Date().toISOString(),
    };
    const config = this.options.toolConfig?.[name];
    if (config) record.config = config;
    if (origin === 'built') record.origin = 'built';
    const [loaded, beside] = await Promise.allSettled([
      this.loadVersion(record, bytes),
      alongside?.(record, bytes),
    ]);
    if (loaded.status === 'rejected') throw loaded.reason;
    const version = loaded.value;
    if (beside.status === 'rejected') {
      await version.pool.close().catch(() => undefined);
      throw beside.reason;
    }
    try {
      return {
        version,
        tool: this.options.loader.toolFor(name, version, record.display_name, toolSource(record)),
        record,
        bytes,
      };
    } catch (error) {
      await version.pool.close();
      throw error;
    }
  }

  private async readCapabilitiesFile(path: string): Promise<Record<string, unknown>> {
    try {
      return JSON.parse(await readFile(path, 'utf8')) as Record<string, unknown>;
    } catch (error) {
      throw new CapabilitiesInvalidError(
        `Cannot read the capabilities file ${path}: ${error instanceof Error ? error.message : String(error)}.`,
        { cause: error },
      );
    }
  }

  /**
   * Compiles and starts a version, then checks the WIT version the component really imports. `bytes` have
   * been checked against `record.sha256` by the caller (the compile cache is keyed by it).
   */
  async loadVersion(record: InstalledToolRecord, bytes: Uint8Array): Promise<WasmToolVersion> {
    const capabilities = parseCapabilities(record.capabilities, `capabilities of ${record.name}`);
    const config = this.options.toolConfig?.[record.name] ?? record.config;
    const version = await this.options.loader.loadVersion(
      { bytes, capabilities, version: record.version, config, verifiedSha256: record.sha256 },
      record.name,
    );
    if (version.witVersion !== undefined && version.witVersion !== record.wit_version) {
      await version.pool.close();
      throw new IntegrityMismatchError(
        `${record.name} declares wit_version ${record.wit_version} but its component imports talon:tool/host@${version.witVersion}.`,
        {
          details: { expected: record.wit_version, actual: version.witVersion, check: 'wit_version' },
        },
      );
    }
    return version;
  }
}
