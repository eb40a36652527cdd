import { ERROR_CODES } from '@talon/contracts';
import type {
  AttenuateRequest,
  AttenuateResult,
  DiscoveryReport,
  SelectRequest,
  SelectResult,
  SkillInstallRequest,
  SkillInstallResult,
  SkillListRequest,
  SkillListResult,
  SkillLoadRequest,
  SkillLoadResult,
  SkillReadFileRequest,
  SkillReadFileResult,
  SkillRemoveRequest,
  SkillRemoveResult,
  SkillSearchRequest,
  SkillSearchResult,
  SkillTriggerTable,
} from '@talon/contracts';
import { toDiscoveryReport, toSkillSummary, type SkillSnapshot } from './skill-discovery.js';
import type { GatingOptions } from './skill-gating.js';
import { installSkill, removeSkill, type SkillInstallerOptions } from './skill-installer.js';
import { listSkillFiles, readSkillTextFile } from './skill-files.js';
import { buildSkillIndexPrompt } from './skill-index-prompt.js';
import { SkillSearch } from './skill-search.js';
import { SkillSourceError } from './skill-source-error.js';
import { SkillSelector } from './skill-selector.js';
import { collectTriggers } from './skill-triggers.js';
import { SkillWatcher, type SnapshotListener } from './skill-watcher.js';
import type { SkillsConfig } from './skills-config.js';
import { attenuateTools } from './tool-attenuation.js';

/** Options of {@link SkillCatalog}. */
export interface SkillCatalogOptions extends GatingOptions {
  config: SkillsConfig;
  /** Debounce of the directory watcher. Default 150 ms. */
  debounceMs?: number;
  /** Called before any install URL is fetched; throw to refuse (the SSRF guard). */
  checkUrl?: SkillInstallerOptions['checkUrl'];
  /** The fetch install downloads go through (the SSRF-guarded one in the service). */
  fetch?: SkillInstallerOptions['fetch'];
  /** Shares installs and removals with the other replicas (see {@link InstalledSkillsSync}); none by default. */
  sharing?: SkillSharing;
}

/** Where the catalog tells other replicas about installs and removals. */
export interface SkillSharing {
  publish(name: string): Promise<void>;
  /** Resolves whether a shared record existed. */
  withdraw(name: string): Promise<boolean>;
}

/**
 * Everything the skill-service serves, one method per API call, each taking and returning the contract
 * types. It watches the skill directories and rebuilds the selection and search indexes once per snapshot.
 */
export class SkillCatalog {
  private selector!: SkillSelector;
  private searcher!: SkillSearch;
  private triggerTable!: SkillTriggerTable;
  private snapshot!: SkillSnapshot;
  private readonly watcher: SkillWatcher;

  private constructor(private readonly options: SkillCatalogOptions) {
    const { config, debounceMs, ...gating } = options;
    this.watcher = new SkillWatcher({
      settings: config.settings,
      ...gating,
      dirs: config.dirs,
      ...(debounceMs !== undefined ? { debounceMs } : {}),
    });
    this.watcher.onSnapshot((snapshot) => this.index(snapshot));
  }

  /** Discovers the skills, builds the indexes and starts watching. */
  static async open(options: SkillCatalogOptions): Promise<SkillCatalog> {
    const catalog = new SkillCatalog(options);
    await catalog.watcher.start();
    return catalog;
  }

  /** The current discovery snapshot (internal representation, bodies included). */
  current(): SkillSnapshot {
    return this.snapshot;
  }

  /** `skills.list`. */
  list(request: SkillListRequest = {}): SkillListResult {
    const skills = this.snapshot.skills
      .filter((skill) => (request.includeGatedOut ?? true) || skill.gating.eligible)
      .filter((skill) => !request.trust || skill.trust === request.trust);
    return {
      skills: skills.map(toSkillSummary),
      rejected: this.snapshot.rejected,
      shadowed: this.snapshot.shadowed,
      generation: this.snapshot.generation,
    };
  }

  /** The full discovery report. */
  report(): DiscoveryReport {
    return toDiscoveryReport(this.snapshot);
  }

  /**
   * `skills.select`, by the deployment's mode: `prefilter` activates the best skills; `model` activates only
   * mentioned skills and lists the others in an index the model loads from with `skill_load`; `hybrid`
   * activates the best skills and lists the rest. The index is ranked by relevance to the message and cut to
   * the index budget.
   */
  select(request: SelectRequest): SelectResult {
    const { mode, indexMaxTokens } = this.options.config;
    const result = this.selector.select(request.message, {
      ...(mode === 'model' ? { maxActive: 0 } : {}),
      ...(request.maxActive !== undefined && mode !== 'model' ? { maxActive: request.maxActive } : {}),
      ...(request.maxContextTokens !== undefined ? { maxContextTokens: request.maxContextTokens } : {}),
      ...(request.parameters !== undefined ? { parameters: request.parameters } : {}),
    });
    if (mode === 'prefilter') return { ...result, mode };
    const active = new Set(result.active.map((skill) => skill.name));
    const index = buildSkillIndexPrompt(
      this.selector.rank(request.message).filter((skill) => !active.has(skill.name)),
      indexMaxTokens,
    );
    return { ...result, mode, index: index.text, indexed: index.listed };
  }

  /** `skills.load`: an eligible skill rendered with its parameters, and the files of its folder. */
  async load(request: SkillLoadRequest): Promise<SkillLoadResult> {
    const skill = this.selector.activate(request.name, request.parameters);
    if (!skill) throw this.unavailable(request.name);
    const dir = this.snapshot.skills.find((candidate) => candidate.name === request.name)!.dir;
    const listing = await listSkillFiles(dir);
    return { skill, files: listing.files, filesTruncated: listing.truncated };
  }

  /** `skills.readFile`: one text file of an eligible skill's folder, confined to that folder. */
  async readFile(request: SkillReadFileRequest): Promise<SkillReadFileResult> {
    const skill = this.snapshot.skills.find((candidate) => candidate.name === request.name);
    if (!skill?.gating.eligible) throw this.unavailable(request.name);
    const file = await readSkillTextFile(skill.name, skill.dir, request.path);
    return { name: skill.name, trust: skill.trust, ...file };
  }

  private unavailable(name: string): SkillSourceError {
    const skill = this.snapshot.skills.find((candidate) => candidate.name === name);
    return new SkillSourceError(
      ERROR_CODES.NOT_FOUND,
      skill
        ? `skill "${name}" is gated out here: ${skill.gating.reasons.join('; ')}.`
        : `no skill is named "${name}"; pick one from the skill index or skill_search.`,
      { details: { skill: name } },
    );
  }

  /** `skills.attenuate`. */
  attenuate(request: AttenuateRequest): AttenuateResult {
    return attenuateTools(request.activeSkills, request.tools);
  }

  /** `skills.search`. */
  search(request: SkillSearchRequest): SkillSearchResult {
    return { hits: this.searcher.search(request.query, request.limit) };
  }

  /** Trigger routes of the eligible skills (commands, schedules, webhooks, manual). */
  triggers(): SkillTriggerTable {
    return this.triggerTable;
  }

  /** `skills.install`; the new skill is visible to the next call once this resolves. */
  async install(request: SkillInstallRequest): Promise<SkillInstallResult> {
    const { config, checkUrl, fetch } = this.options;
    const result = await installSkill(request, {
      installedDir: config.dirs.installed,
      registryDir: config.registryDir,
      ...(checkUrl ? { checkUrl } : {}),
      ...(fetch ? { fetch } : {}),
    });
    try {
      await this.options.sharing?.publish(result.name);
    } catch (error) {
      // Not shared means not installed: no replica may serve a skill the others never see.
      await removeSkill(result.name, { installedDir: config.dirs.installed });
      throw error;
    }
    await this.watcher.refresh();
    return result;
  }

  /** `skills.remove`; only installed skills can be removed. */
  async remove(request: SkillRemoveRequest): Promise<SkillRemoveResult> {
    const result = await removeSkill(request.name, { installedDir: this.options.config.dirs.installed });
    // Withdrawn even when this replica had no folder: another replica may still hold the record.
    const shared = (await this.options.sharing?.withdraw(request.name)) ?? false;
    if (result.removed) await this.watcher.refresh();
    return { ...result, removed: result.removed || shared };
  }

  /** Subscribes to new snapshots (after the indexes were rebuilt). */
  onChange(listener: SnapshotListener): () => void {
    return this.watcher.onSnapshot(listener);
  }

  /** Re-runs discovery now. */
  async refresh(): Promise<SkillSnapshot> {
    return this.watcher.refresh();
  }

  /** Gates `requires.mcp` against these MCP server names from now on; resolves once the catalog reflects them. */
  async setMcpServers(names: readonly string[]): Promise<SkillSnapshot> {
    return this.watcher.setMcpServers(names);
  }

  /** Stops watching. */
  async close(): Promise<void> {
    await this.watcher.close();
  }

  private index(snapshot: SkillSnapshot): void {
    const { config } = this.options;
    this.selector = new SkillSelector(snapshot.skills, {
      maxActive: config.maxActive,
      maxContextTokens: config.maxContextTokens,
      similarityThreshold: config.similarityThreshold,
    });
    this.searcher = new SkillSearch(snapshot.skills);
    this.triggerTable = collectTriggers(snapshot.skills);
    this.snapshot = snapshot;
  }
}
