import type { SandboxProfile } from '@talon/contracts';

/**
 * One line for the person approving a call: what the tool's sandboxed process may write, read beyond the
 * system, and reach. `networkHosts` in the call's params (the `shell` tool's per-call grant) is named too.
 */
export function summarizeSandbox(profile: SandboxProfile, params: Readonly<Record<string, unknown>>): string {
  const list = (paths: readonly string[]) => (paths.length === 0 ? 'nothing' : paths.join(', '));
  const granted = Array.isArray(params.networkHosts)
    ? params.networkHosts.filter((host): host is string => typeof host === 'string')
    : [];
  const hosts = profile.network.mode === 'proxy' ? profile.network.hosts : granted;
  const network =
    hosts.length === 0 ? 'no network' : `network only to ${hosts.join(', ')} through Talon's proxy`;
  return `runs sandboxed: writes ${list(profile.writePaths)}; reads the system and ${list(profile.readPaths)}; ${network}`;
}
