import { spawnSync } from 'node:child_process';
import {
  accessSync,
  chmodSync,
  chownSync,
  constants,
  existsSync,
  mkdirSync,
  mkdtempSync,
  rmSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { SandboxProfile, SandboxStatus } from '@talon/contracts';
import { SsrfGuard, type AllowlistEntry, type HostLookup } from '@talon/safety';
import { bubblewrapArguments, SANDBOX_RUN_DIR } from './bubblewrap-arguments.js';
import { EgressProxy, type EgressDecision } from './egress-proxy.js';
import { SandboxPathUnreachableError } from './errors/sandbox-path-unreachable-error.js';
import { SandboxUnavailableError } from './errors/sandbox-unavailable-error.js';
import { presentEtcEntries, writeSandboxEtc } from './sandbox-etc.js';
import { sandboxEnvironment } from './sandbox-environment.js';
import { unreachableParent } from './sandbox-path-access.js';
import { resolveSandboxIdentity, type SandboxIdentity } from './sandbox-identity.js';
import { sandboxProfile } from './sandbox-profile.js';

/** The loopback port inside a proxied sandbox where the bridge to Talon's proxy listens. */
export const SANDBOX_PROXY_PORT = 3128;
const BRIDGE_SCRIPT = fileURLToPath(new URL('../assets/loopback-bridge.mjs', import.meta.url));
const SYSTEM_PREFIXES = ['/usr/', '/bin/', '/lib/', '/lib64/', '/sbin/'];
const RUN_DIR_PREFIX = 'talon-sandbox-run-';

/** Options of {@link Sandbox.create}; every field is optional. */
export interface SandboxOptions {
  /** `off` runs processes unsandboxed (the operator accepts the risk). Default: from `TALON_SANDBOX`. */
  mode?: 'on' | 'off';
  /** The bubblewrap binary. Default `/usr/bin/bwrap` (env `TALON_BWRAP`). */
  bwrapPath?: string;
  /** Default: {@link resolveSandboxIdentity}. */
  identity?: SandboxIdentity;
  /** CIDR ranges the egress proxy allows despite being private (an internal mirror; tests: loopback). */
  egressAllowlist?: readonly AllowlistEntry[];
  /** Name resolution of the egress proxy. Default: the system resolver. */
  lookup?: HostLookup;
  /** Every proxy decision, for the service log. */
  onEgress?: (decision: EgressDecision) => void;
  env?: NodeJS.ProcessEnv;
}

/** What a caller passes to run one program sandboxed. */
export interface SandboxSpawnRequest {
  /** Who asks, named in a refusal (`shell`, `MCP server "memory"`). */
  what: string;
  profile: SandboxProfile;
  /** The program and its arguments (an absolute program path, or one found on the sandbox PATH). */
  argv: readonly string[];
  /** Working directory inside the sandbox; must be one of the profile's paths. Default: the first write path. */
  cwd?: string;
  /** Variables the definition sets (an MCP server's env); filtered, see {@link sandboxEnvironment}. */
  env?: Readonly<Record<string, string>>;
  /**
   * The caller passes `uid`/`gid` to `spawn` itself (saves the `setpriv` exec when Talon runs as root).
   * Default false: the spawn drops to the sandbox user through `setpriv` (the MCP SDK cannot set a uid).
   */
  setsIdentity?: boolean;
}

/** A prepared spawn: hand `file`, `args`, `env`, `cwd` to `child_process.spawn`; call `dispose` after exit. */
export interface SandboxedSpawn {
  file: string;
  args: string[];
  env: Record<string, string>;
  cwd: string;
  /** Host user and group to spawn as, when the request `setsIdentity` and Talon runs as root. */
  uid?: number;
  gid?: number;
  sandboxed: boolean;
  dispose(): Promise<void>;
}

/**
 * Runs programs under bubblewrap with a {@link SandboxProfile}. Created once per service: it probes the
 * host (bubblewrap present, namespaces allowed) and fails closed: when the probe fails every `prepare`
 * throws {@link SandboxUnavailableError}, unless the operator set `TALON_SANDBOX=off`.
 */
export class Sandbox {
  private constructor(
    readonly status: SandboxStatus,
    private readonly options: SandboxOptions,
    /** The host user sandboxed processes run as. */
    readonly identity: SandboxIdentity,
    private readonly bwrapPath: string,
    private readonly etcDir: string | undefined,
  ) {}

  private static shared: Sandbox | undefined;

  /** One sandbox per process built from the environment, probed on first use. */
  static fromEnvironment(): Sandbox {
    Sandbox.shared ??= Sandbox.create();
    return Sandbox.shared;
  }

  /** Probes the host once and returns the sandbox in the mode it can run in. */
  static create(options: SandboxOptions = {}): Sandbox {
    const env = options.env ?? process.env;
    const mode = options.mode ?? (env.TALON_SANDBOX === 'off' ? 'off' : 'on');
    const bwrapPath = options.bwrapPath ?? (env.TALON_BWRAP || '/usr/bin/bwrap');
    const identity = options.identity ?? resolveSandboxIdentity(env);
    if (mode === 'off')
      return new Sandbox(
        { mode: 'off', detail: 'TALON_SANDBOX=off: processes run unsandboxed' },
        options,
        identity,
        bwrapPath,
        undefined,
      );
    const etcDir = writeSandboxEtc(identity);
    process.once('exit', () => rmSync(etcDir, { recursive: true, force: true }));
    const sandbox = new Sandbox({ mode: 'bubblewrap' }, options, identity, bwrapPath, etcDir);
    const problem = sandbox.probe();
    if (problem !== undefined) {
      rmSync(etcDir, { recursive: true, force: true });
      return new Sandbox({ mode: 'unavailable', detail: problem }, options, identity, bwrapPath, undefined);
    }
    return sandbox;
  }

  /** Builds the spawn of one program. Throws {@link SandboxUnavailableError} when the sandbox cannot run. */
  async prepare(request: SandboxSpawnRequest): Promise<SandboxedSpawn> {
    const { profile } = request;
    const cwd = request.cwd ?? profile.writePaths[0] ?? profile.readPaths[0] ?? '/';
    if (this.status.mode === 'unavailable')
      throw new SandboxUnavailableError(request.what, this.status.detail ?? 'unknown');
    if (this.status.mode === 'off') {
      const env = sandboxEnvironment({
        inherited: process.env,
        ...(request.env ? { extra: request.env } : {}),
      });
      const [file, ...args] = request.argv;
      return { file, args, env, cwd, sandboxed: false, dispose: async () => undefined };
    }
    this.ensureWritePaths(profile.writePaths);
    let runDir: string | undefined;
    let proxy: EgressProxy | undefined;
    let argv = [...request.argv];
    const extraReadFiles = commandFiles(argv[0]);
    const proxied = profile.network.mode === 'proxy';
    this.assertReachable(request.what, [
      ...profile.readPaths,
      ...profile.writePaths,
      ...extraReadFiles,
      ...(proxied ? [...commandFiles(process.execPath), BRIDGE_SCRIPT, join(tmpdir(), RUN_DIR_PREFIX)] : []),
    ]);
    if (profile.network.mode === 'proxy') {
      runDir = mkdtempSync(join(tmpdir(), RUN_DIR_PREFIX));
      chmodSync(runDir, 0o755);
      proxy = new EgressProxy({
        hosts: profile.network.hosts,
        guard: new SsrfGuard({
          allowlist: this.options.egressAllowlist ?? [],
          ...(this.options.lookup ? { lookup: this.options.lookup } : {}),
        }),
        ...(this.options.onEgress ? { onDecision: this.options.onEgress } : {}),
      });
      await proxy.listen(join(runDir, 'proxy.sock'));
      argv = [
        process.execPath,
        BRIDGE_SCRIPT,
        String(SANDBOX_PROXY_PORT),
        `${SANDBOX_RUN_DIR}/proxy.sock`,
        '--',
        ...argv,
      ];
      extraReadFiles.push(...commandFiles(process.execPath), BRIDGE_SCRIPT);
    }
    const env = sandboxEnvironment({
      inherited: process.env,
      ...(request.env ? { extra: request.env } : {}),
      ...(proxy ? { proxyUrl: `http://127.0.0.1:${SANDBOX_PROXY_PORT}` } : {}),
    });
    const bwrap = bubblewrapArguments({
      profile,
      identity: this.identity,
      etcDir: this.etcDir!,
      etcEntries: presentEtcEntries(),
      cwd,
      ...(runDir ? { runDir } : {}),
      extraReadFiles: [...new Set(extraReadFiles)],
      argv,
    });
    const direct = request.setsIdentity === true && this.identity.dropFromRoot;
    const [file, args] = direct ? [this.bwrapPath, bwrap] : this.launcher(bwrap);
    return {
      file,
      args,
      env,
      cwd: '/',
      ...(direct ? { uid: this.identity.uid, gid: this.identity.gid } : {}),
      sandboxed: true,
      dispose: async () => {
        await proxy?.close();
        if (runDir) rmSync(runDir, { recursive: true, force: true });
      },
    };
  }

  /**
   * Throws {@link SandboxPathUnreachableError} when the sandbox user cannot enter a directory above one of
   * `paths` (a workspace below a root-only home, a state directory under a 0700 parent). `prepare` checks
   * every path it binds; the runner also checks its workspace and MCP data directory at start.
   */
  assertReachable(what: string, paths: readonly string[]): void {
    if (this.status.mode !== 'bubblewrap') return;
    for (const path of paths) {
      const blocked = unreachableParent(path, this.identity);
      if (blocked) throw new SandboxPathUnreachableError(what, this.identity.uid, blocked);
    }
  }

  /**
   * Creates missing write paths as directories (a server's data directory on first start) and, when Talon
   * runs as root, hands the ones it created to the sandbox user. Existing paths keep their owner.
   */
  private ensureWritePaths(paths: readonly string[]): void {
    for (const path of paths) {
      if (existsSync(path)) continue;
      const first = mkdirSync(path, { recursive: true, mode: 0o755 });
      if (!this.identity.dropFromRoot || first === undefined) continue;
      for (let dir = path; dir.length >= first.length; dir = dirname(dir))
        chownSync(dir, this.identity.uid, this.identity.gid);
    }
  }

  /** bubblewrap itself, or `setpriv` dropping root to the sandbox user first. */
  private launcher(bwrapArgs: string[]): [string, string[]] {
    if (!this.identity.dropFromRoot) return [this.bwrapPath, bwrapArgs];
    return [
      '/usr/bin/setpriv',
      [
        '--reuid',
        String(this.identity.uid),
        '--regid',
        String(this.identity.gid),
        '--clear-groups',
        '--',
        this.bwrapPath,
        ...bwrapArgs,
      ],
    ];
  }

  /** Runs `true` in an empty sandbox; returns what is wrong, or undefined when it works. */
  private probe(): string | undefined {
    for (const tool of [
      this.bwrapPath,
      '/usr/bin/prlimit',
      ...(this.identity.dropFromRoot ? ['/usr/bin/setpriv'] : []),
    ]) {
      try {
        accessSync(tool, constants.X_OK);
      } catch {
        return `${tool} is missing`;
      }
    }
    const bwrap = bubblewrapArguments({
      profile: sandboxProfile(),
      identity: this.identity,
      etcDir: this.etcDir!,
      etcEntries: presentEtcEntries(),
      cwd: '/',
      argv: ['/bin/true'],
    });
    const [file, args] = this.launcher(bwrap);
    const result = spawnSync(file, args, {
      cwd: '/',
      env: { PATH: '/usr/bin:/bin' },
      timeout: 10_000,
      encoding: 'utf8',
    });
    if (result.error) return `${file} could not start: ${result.error.message}`;
    if (result.status !== 0)
      return `bubblewrap failed (exit ${result.status ?? result.signal}): ${(result.stderr || '').trim().slice(0, 300) || 'no message'}`;
    const version = spawnSync(this.bwrapPath, ['--version'], { encoding: 'utf8' }).stdout?.trim();
    this.status.detail = `${version || 'bubblewrap'}, sandbox uid ${this.identity.uid}`;
    return undefined;
  }
}

/** A program outside the system directories is bound read-only so the sandbox can run it. */
function commandFiles(program: string | undefined): string[] {
  if (program === undefined || !program.startsWith('/')) return [];
  return SYSTEM_PREFIXES.some((prefix) => program.startsWith(prefix)) ? [] : [program];
}
