import type {
  ToolBuildEvent,
  ToolBuildInstallRequest,
  ToolBuildReport,
  ToolBuildRequest,
} from '@talon/contracts';
import { canonicalJson } from '@talon/tool-runtime';
import { IntegrityMismatchError } from '../errors/integrity-mismatch-error.js';
import { ToolNotInstalledError } from '../errors/tool-not-installed-error.js';
import type { InstalledToolInfo, ToolInstaller } from '../tool-installer.js';
import type { BuiltToolsStore, BuiltVersion } from './built-tools-store.js';
import type { ToolBuildHooks, ToolBuilder } from './tool-builder.js';

/** What `tool_build_install` answers. */
export interface BuiltToolInstallResult {
  installed: InstalledToolInfo;
  /** `installed` for a new name, `upgraded` when an earlier version was installed. */
  change: 'installed' | 'upgraded';
  capabilities: Record<string, unknown>;
}

/** What `extension_info` adds for a built tool. */
export interface BuiltToolInfo {
  /** Every approved version, newest first. */
  versions: { version: string; sha256: string; approved_at: string }[];
  /** The source of the installed version (or of the newest approved one). */
  version?: string;
  source?: string;
  capabilities?: Record<string, unknown>;
}

/**
 * Built tools end to end: build (staged, nothing installed), install after a person approved exactly the build's
 * sha256 and capabilities, upgrade or roll back among approved versions, and describe them with their source.
 */
export class BuiltToolService {
  constructor(
    private readonly builder: ToolBuilder,
    private readonly store: BuiltToolsStore,
    private readonly installer: ToolInstaller,
    /** Told of every build step and install (the runner publishes them on NATS). */
    private readonly onEvent?: (event: ToolBuildEvent) => void,
  ) {}

  build(request: ToolBuildRequest, hooks: ToolBuildHooks = {}): Promise<ToolBuildReport> {
    return this.builder.build(request, {
      signal: hooks.signal,
      onEvent: (event) => {
        hooks.onEvent?.(event);
        this.onEvent?.(event);
      },
    });
  }

  /**
   * Installs (or upgrades to) a ready build. The request must repeat the build's sha256 and capabilities exactly:
   * what the person approved is what runs. @throws ToolNotInstalledError, IntegrityMismatchError
   */
  async installBuild(request: ToolBuildInstallRequest): Promise<BuiltToolInstallResult> {
    const built = await this.store.get(request.build_id);
    if (!built) throw new ToolNotInstalledError(`No build ${request.build_id}; run tool_build first.`);
    if (built.report.status !== 'ready')
      throw new IntegrityMismatchError(
        `Build ${request.build_id} failed (${built.report.reason ?? 'see its report'}); it cannot be installed.`,
      );
    if (request.sha256 !== built.entry!.artifact.sha256)
      throw new IntegrityMismatchError(
        `Build ${request.build_id} has sha256 ${built.entry!.artifact.sha256}, not ${request.sha256}; approve the build's own report.`,
        { details: { expected: built.entry!.artifact.sha256, actual: request.sha256, check: 'sha256' } },
      );
    if (canonicalJson(request.capabilities) !== canonicalJson(built.report.capabilities ?? {}))
      throw new IntegrityMismatchError(
        `The capabilities given differ from those of build ${request.build_id}; approve the capabilities in its report unchanged.`,
        { details: { expected: built.report.capabilities, check: 'capabilities' } },
      );
    await this.store.approve(request.build_id, request.sha256);
    const located = this.store.located(built);
    const upgrade = this.installer.get(built.name) !== undefined;
    const installed = upgrade
      ? await this.installer.upgrade(built.name, located)
      : await this.installer.install(built.name, located);
    this.onEvent?.({
      buildId: built.buildId,
      name: built.name,
      stage: 'installed',
      round: built.report.rounds.length,
      message: `${upgrade ? 'upgraded to' : 'installed'} ${built.buildId} (sha256 ${request.sha256})`,
      at: new Date().toISOString(),
    });
    return {
      installed,
      change: upgrade ? 'upgraded' : 'installed',
      capabilities: built.report.capabilities ?? {},
    };
  }

  /**
   * Moves an installed built tool to an approved version: the newest, or `version` (a rollback).
   * @throws ToolNotInstalledError
   */
  async upgrade(name: string, version?: string): Promise<InstalledToolInfo> {
    const approved = await this.store.approvedVersions(name);
    const target = version ? approved.find((built) => built.version === version) : approved[0];
    if (!target)
      throw new ToolNotInstalledError(
        `${name} has no approved built version ${version ?? ''}; see extension_info for its versions.`.replace(
          ' ;',
          ';',
        ),
      );
    return this.installer.upgrade(name, this.store.located(target));
  }

  /** Whether a name has approved built versions. */
  async isBuilt(name: string): Promise<boolean> {
    return (await this.store.approvedVersions(name)).length > 0;
  }

  /** Versions and source of a built tool, or undefined for a name the builder never made. */
  async info(name: string): Promise<BuiltToolInfo | undefined> {
    const approved = await this.store.approvedVersions(name);
    if (approved.length === 0) return undefined;
    const installedSha = this.installer.get(name)?.version.sha256;
    const current: BuiltVersion =
      approved.find((built) => built.entry!.artifact.sha256 === installedSha) ?? approved[0]!;
    return {
      versions: approved.map((built) => ({
        version: built.version,
        sha256: built.entry!.artifact.sha256,
        approved_at: built.approvedAt!,
      })),
      version: current.version,
      source: await this.store.source(current),
      capabilities: current.report.capabilities,
    };
  }
}
