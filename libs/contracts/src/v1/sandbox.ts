import { Type, type Static } from '@sinclair/typebox';

/**
 * Resource limits of one sandboxed process tree. Each is applied with `prlimit` inside the sandbox, so
 * it binds the command and every process it starts.
 */
export const SandboxLimitsSchema = Type.Object(
  {
    /** CPU time in seconds (RLIMIT_CPU): a busy loop gets SIGXCPU, then SIGKILL. */
    cpuSeconds: Type.Integer({ minimum: 1, maximum: 86_400 }),
    /**
     * Address space per process in bytes (RLIMIT_AS): an allocation beyond it fails with ENOMEM. Chosen
     * over cgroup memory because it works without a delegated cgroup (containers, cgroup v1 hosts).
     */
    addressSpaceBytes: Type.Integer({ minimum: 64 * 1024 * 1024 }),
    /** Processes of the sandbox user inside the sandbox's user namespace (RLIMIT_NPROC): fork bombs end. */
    maxProcesses: Type.Integer({ minimum: 4, maximum: 65_536 }),
    /** Largest file the sandbox may write, in bytes (RLIMIT_FSIZE). */
    maxFileBytes: Type.Integer({ minimum: 1024 }),
    /** Open file descriptors per process (RLIMIT_NOFILE). */
    maxOpenFiles: Type.Integer({ minimum: 16, maximum: 1_048_576 }),
    /** Size of the private `/tmp` (a tmpfs), in bytes. */
    tmpBytes: Type.Integer({ minimum: 1024 * 1024 }),
  },
  { additionalProperties: false },
);
/** Limits of a sandbox. */
export type SandboxLimits = Static<typeof SandboxLimitsSchema>;

/**
 * Network of a sandbox. `none`: a network namespace with loopback only. `proxy`: still no route out, but
 * `HTTP_PROXY`/`HTTPS_PROXY` point at Talon's egress proxy, which lets requests through only to `hosts`
 * (exact names or `*.suffix` patterns) and only past the SSRF guard and the egress leak scan.
 */
export const SandboxNetworkSchema = Type.Union([
  Type.Object({ mode: Type.Literal('none') }, { additionalProperties: false }),
  Type.Object(
    {
      mode: Type.Literal('proxy'),
      hosts: Type.Array(
        Type.String({ minLength: 1, maxLength: 253, pattern: '^(\\*\\.)?[a-zA-Z0-9.:\\[\\]-]+$' }),
        {
          minItems: 1,
          maxItems: 64,
        },
      ),
    },
    { additionalProperties: false },
  ),
]);
/** Network of a sandbox. */
export type SandboxNetwork = Static<typeof SandboxNetworkSchema>;

/**
 * What a sandboxed process may touch: besides these paths it sees only the read-only system (`/usr`, `/bin`,
 * `/lib*`, a minimal `/etc`), its own `/proc`, `/dev/{null,zero,random,urandom,tty}` and a private `/tmp`.
 * Paths are absolute and appear at the same place inside the sandbox.
 */
export const SandboxProfileSchema = Type.Object(
  {
    /** Directories or files bound read-only (e.g. the install's `node_modules` for an MCP server). */
    readPaths: Type.Array(Type.String({ pattern: '^/' }), { maxItems: 64 }),
    /** Directories or files bound read-write (the workspace, a server's data file). */
    writePaths: Type.Array(Type.String({ pattern: '^/' }), { maxItems: 64 }),
    network: SandboxNetworkSchema,
    limits: SandboxLimitsSchema,
  },
  { additionalProperties: false },
);
/** One sandbox profile. */
export type SandboxProfile = Static<typeof SandboxProfileSchema>;

/** How a service runs the processes it spawns. */
export const SANDBOX_MODES = ['bubblewrap', 'off', 'unavailable'] as const;
/** `bubblewrap`: every spawn sandboxed; `off`: the operator turned it off (`TALON_SANDBOX=off`); `unavailable`: spawns are refused. */
export type SandboxMode = (typeof SANDBOX_MODES)[number];

/** A service's sandbox mode as it reports it at start and in `system.status`. */
export const SandboxStatusSchema = Type.Object({
  mode: Type.Union(SANDBOX_MODES.map((mode) => Type.Literal(mode))),
  /** Why the sandbox is unavailable, or the bubblewrap version when it runs. */
  detail: Type.Optional(Type.String()),
});
/** A sandbox status. */
export type SandboxStatus = Static<typeof SandboxStatusSchema>;
