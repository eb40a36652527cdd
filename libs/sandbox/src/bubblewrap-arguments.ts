import { lstatSync, readlinkSync } from 'node:fs';
import type { SandboxProfile } from '@talon/contracts';
import { SANDBOX_HOSTNAME } from './sandbox-etc.js';
import type { SandboxIdentity } from './sandbox-identity.js';

/** System directories bound read-only (or re-created as the same symlink, on merged-/usr hosts). */
export const SYSTEM_DIRECTORIES = ['/usr', '/bin', '/sbin', '/lib', '/lib32', '/lib64', '/libx32'] as const;
/** The only devices a sandbox sees. */
export const SANDBOX_DEVICES = ['/dev/null', '/dev/zero', '/dev/random', '/dev/urandom', '/dev/tty'] as const;
/** Where the egress proxy's socket directory appears inside a sandbox. */
export const SANDBOX_RUN_DIR = '/run/talon';

/** Everything the argument builder needs besides the profile. */
export interface BubblewrapInvocation {
  profile: SandboxProfile;
  identity: SandboxIdentity;
  /** The generated `/etc` files (passwd, group, hosts). */
  etcDir: string;
  /** Shared host `/etc` entries to bind (resolv.conf, ssl, …). */
  etcEntries: readonly string[];
  /** Working directory inside the sandbox. */
  cwd: string;
  /** Host directory bound at {@link SANDBOX_RUN_DIR} (the proxy socket), when the network is proxied. */
  runDir?: string;
  /** Extra files bound read-only at the same path (the command itself, the bridge script). */
  extraReadFiles?: readonly string[];
  /** The program and its arguments, run under `prlimit` inside the sandbox. */
  argv: readonly string[];
}

/**
 * Builds the bubblewrap command line: every namespace unshared (mount, pid, net, ipc, uts, cgroup, user),
 * nothing shared back; an empty tmpfs root with the system read-only, a generated `/etc`, the profile's
 * paths, a size-capped private `/tmp`, its own `/proc`, five devices; no capabilities, a new session,
 * killed with its parent; the command runs under `prlimit` with the profile's limits.
 */
export function bubblewrapArguments(invocation: BubblewrapInvocation): string[] {
  const { profile, identity, etcDir } = invocation;
  const args = ['--unshare-all', '--unshare-user', '--disable-userns', '--die-with-parent', '--new-session'];
  args.push('--uid', String(identity.uid), '--gid', String(identity.gid), '--hostname', SANDBOX_HOSTNAME);
  args.push('--cap-drop', 'ALL');
  for (const dir of SYSTEM_DIRECTORIES) args.push(...systemDirectory(dir));
  args.push('--dir', '/etc');
  for (const name of ['passwd', 'group', 'hosts', 'hostname'])
    args.push('--ro-bind', `${etcDir}/${name}`, `/etc/${name}`);
  for (const entry of invocation.etcEntries) args.push('--ro-bind', `/etc/${entry}`, `/etc/${entry}`);
  args.push('--proc', '/proc', '--dir', '/dev');
  for (const device of SANDBOX_DEVICES) args.push('--dev-bind-try', device, device);
  for (const [name, target] of [
    ['fd', '/proc/self/fd'],
    ['stdin', '/proc/self/fd/0'],
    ['stdout', '/proc/self/fd/1'],
    ['stderr', '/proc/self/fd/2'],
  ])
    args.push('--symlink', target, `/dev/${name}`);
  args.push('--size', String(profile.limits.tmpBytes), '--tmpfs', '/tmp');
  args.push('--dir', '/run', '--dir', '/var', '--symlink', '/tmp', '/var/tmp');
  for (const path of [...profile.readPaths, ...(invocation.extraReadFiles ?? [])])
    args.push('--ro-bind', path, path);
  for (const path of profile.writePaths) args.push('--bind', path, path);
  if (invocation.runDir !== undefined) args.push('--bind', invocation.runDir, SANDBOX_RUN_DIR);
  // The root tmpfs (with its /etc, /run, /var) becomes read-only; /tmp and the bound paths keep their mode.
  args.push('--remount-ro', '/');
  args.push('--chdir', invocation.cwd, '--');
  args.push(...prlimitArguments(profile), ...invocation.argv);
  return args;
}

/** `prlimit` with the profile's limits (soft = hard, so the process cannot raise them again). */
export function prlimitArguments(profile: SandboxProfile): string[] {
  const { limits } = profile;
  return [
    '/usr/bin/prlimit',
    `--cpu=${limits.cpuSeconds}`,
    `--as=${limits.addressSpaceBytes}`,
    `--nproc=${limits.maxProcesses}`,
    `--fsize=${limits.maxFileBytes}`,
    `--nofile=${limits.maxOpenFiles}`,
    '--core=0',
    '--',
  ];
}

function systemDirectory(dir: string): string[] {
  try {
    const stat = lstatSync(dir);
    if (stat.isSymbolicLink()) return ['--symlink', readlinkSync(dir), dir];
    return stat.isDirectory() ? ['--ro-bind', dir, dir] : [];
  } catch {
    return [];
  }
}
