export {
  Sandbox,
  SANDBOX_PROXY_PORT,
  type SandboxOptions,
  type SandboxSpawnRequest,
  type SandboxedSpawn,
} from './sandbox.js';
export { sandboxProfile, DEFAULT_SANDBOX_LIMITS, type SandboxProfileInput } from './sandbox-profile.js';
export {
  resolveSandboxIdentity,
  DEFAULT_SANDBOX_UID,
  DEFAULT_SANDBOX_GID,
  type SandboxIdentity,
} from './sandbox-identity.js';
export { sandboxEnvironment, SANDBOX_PATH, SANDBOX_ENV_ALLOWLIST } from './sandbox-environment.js';
export {
  bubblewrapArguments,
  prlimitArguments,
  SYSTEM_DIRECTORIES,
  SANDBOX_DEVICES,
  SANDBOX_RUN_DIR,
  type BubblewrapInvocation,
} from './bubblewrap-arguments.js';
export {
  EgressProxy,
  MAX_PROXIED_BODY_BYTES,
  type EgressDecision,
  type EgressProxyOptions,
} from './egress-proxy.js';
export { SandboxUnavailableError, SANDBOX_FIX } from './errors/sandbox-unavailable-error.js';
export { SandboxPathUnreachableError } from './errors/sandbox-path-unreachable-error.js';
export { unreachableParent, type UnreachableDirectory } from './sandbox-path-access.js';
export { SANDBOX_USER, SANDBOX_HOSTNAME } from './sandbox-etc.js';
export { handOverToSandboxUser, MAX_HANDOVER_ENTRIES } from './sandbox-ownership.js';
