import { spawn } from 'node:child_process';
import {
  accessSync,
  closeSync,
  cpSync,
  constants,
  lstatSync,
  mkdtempSync,
  openSync,
  readlinkSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { X86_64_SYSCALL_HEADER } from '@talon/seccomp';

/** The capabilities Docker gives a container by default (no CAP_SYS_ADMIN among them). */
export const DOCKER_DEFAULT_CAPABILITIES = [
  'CAP_CHOWN',
  'CAP_DAC_OVERRIDE',
  'CAP_FSETID',
  'CAP_FOWNER',
  'CAP_MKNOD',
  'CAP_NET_RAW',
  'CAP_SETGID',
  'CAP_SETUID',
  'CAP_SETFCAP',
  'CAP_SETPCAP',
  'CAP_NET_BIND_SERVICE',
  'CAP_SYS_CHROOT',
  'CAP_KILL',
  'CAP_AUDIT_WRITE',
] as const;
/** /proc entries Docker hides (a file gets /dev/null over it, a directory an empty read-only tmpfs). */
export const DOCKER_MASKED_PROC_PATHS = [
  '/proc/asound',
  '/proc/acpi',
  '/proc/kcore',
  '/proc/keys',
  '/proc/latency_stats',
  '/proc/timer_list',
  '/proc/timer_stats',
  '/proc/sched_debug',
  '/proc/scsi',
] as const;
/** /proc entries Docker bind-mounts read-only over themselves. */
export const DOCKER_READONLY_PROC_PATHS = [
  '/proc/bus',
  '/proc/fs',
  '/proc/irq',
  '/proc/sys',
  '/proc/sysrq-trigger',
] as const;

/** How the emulated container is confined, like `docker run --security-opt …`. */
export interface EmulatedContainer {
  /** A compiled seccomp filter (`seccomp=<profile>`); none is `seccomp=unconfined`. */
  seccomp?: Buffer;
  /** `masked`: Docker's default /proc; `unconfined`: `systempaths=unconfined`. */
  systemPaths: 'masked' | 'unconfined';
  /** Host paths visible read-only at the same place (the image: the code and its node_modules). */
  readPaths: readonly string[];
  /** Host directories bound writable: `[host, inContainer]` (a volume). */
  volumes: ReadonlyArray<readonly [string, string]>;
  argv: readonly string[];
  timeoutMs: number;
}

/** Why the emulation cannot run here, or undefined when it can. */
export function emulatedContainerSkipReason(): string | undefined {
  if (process.platform !== 'linux' || process.arch !== 'x64')
    return `the seccomp compiler emits x86_64 filters only (this is ${process.platform}/${process.arch})`;
  if (process.getuid?.() !== 0) return 'emulating a container (capabilities, overlays) needs root';
  for (const path of ['/usr/bin/bwrap', '/usr/bin/unshare', X86_64_SYSCALL_HEADER]) {
    try {
      accessSync(path, constants.R_OK);
    } catch {
      return `${path} is missing`;
    }
  }
  return undefined;
}

/**
 * Runs `argv` as root in a container made of the kernel mechanisms Docker uses: new mount, pid, network,
 * ipc and uts namespaces (no user namespace: root is the host's root), Docker's default capability set,
 * its /proc masking (unless `systempaths=unconfined`), an optional seccomp filter (installed by bubblewrap
 * just before `argv` runs, as runc installs the profile before the entrypoint), the system read-only and
 * a writable copy of /etc. `unshare` mounts the container's own procfs; bubblewrap then binds it
 * and masks it the way Docker does, so the kernel sees the same mount tree a container has. Unlike
 * Docker, bubblewrap always sets no_new_privs on the container; the runner needs no setuid program.
 */
export async function runInEmulatedContainer(
  container: EmulatedContainer,
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const scratch = mkdtempSync(join(tmpdir(), 'talon-container-'));
  const args = ['--mount', '--pid', '--fork', '--kill-child', '--mount-proc', '--ipc', '--uts', '--'];
  // bubblewrap's network namespace has its loopback up, as a container's has.
  args.push('/usr/bin/bwrap', '--unshare-net', '--die-with-parent', '--cap-drop', 'ALL');
  for (const capability of DOCKER_DEFAULT_CAPABILITIES) args.push('--cap-add', capability);
  for (const dir of ['/usr', '/bin', '/sbin', '/lib', '/lib64']) args.push(...systemDirectory(dir));
  // A container's /etc is its own writable layer: a copy here (bubblewrap 0.8 has no overlay option).
  cpSync('/etc', join(scratch, 'etc'), { recursive: true, verbatimSymlinks: true });
  args.push('--bind', join(scratch, 'etc'), '/etc');
  args.push('--dev', '/dev', '--bind', '/proc', '/proc', '--tmpfs', '/tmp', '--dir', '/var/lib');
  if (container.systemPaths === 'masked') args.push(...dockerProcMasks());
  // bubblewrap would create the parents of a bound path as 0700; an image's directories are 0755.
  const parents = new Set<string>();
  for (const path of container.readPaths)
    for (let dir = dirname(path); dir !== '/'; dir = dirname(dir)) parents.add(dir);
  for (const dir of [...parents].sort()) args.push('--perms', '0755', '--dir', dir);
  for (const path of container.readPaths) args.push('--ro-bind', path, path);
  for (const [host, inside] of container.volumes) args.push('--bind', host, inside);
  let seccompFd: number | undefined;
  if (container.seccomp) {
    const file = join(scratch, 'seccomp.bpf');
    writeFileSync(file, container.seccomp);
    seccompFd = openSync(file, 'r');
    args.push('--seccomp', '3');
  }
  args.push('--chdir', '/', '--', ...container.argv);
  try {
    return await new Promise((resolve, reject) => {
      const child = spawn('/usr/bin/unshare', args, {
        env: { PATH: '/usr/bin:/bin', HOME: '/root', LANG: 'C.UTF-8' },
        stdio: ['ignore', 'pipe', 'pipe', ...(seccompFd === undefined ? [] : [seccompFd])],
      });
      let stdout = '';
      let stderr = '';
      child.stdout?.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
      child.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
      const timer = setTimeout(() => child.kill('SIGKILL'), container.timeoutMs);
      child.on('error', reject);
      child.on('close', (code) => {
        clearTimeout(timer);
        resolve({ code, stdout, stderr });
      });
    });
  } finally {
    if (seccompFd !== undefined) closeSync(seccompFd);
    rmSync(scratch, { recursive: true, force: true });
  }
}

function dockerProcMasks(): string[] {
  const args: string[] = [];
  for (const path of DOCKER_MASKED_PROC_PATHS) {
    const stat = lstatOrUndefined(path);
    if (stat?.isDirectory()) args.push('--tmpfs', path, '--remount-ro', path);
    else if (stat) args.push('--ro-bind', '/dev/null', path);
  }
  for (const path of DOCKER_READONLY_PROC_PATHS)
    if (lstatOrUndefined(path)) args.push('--ro-bind', path, path);
  return args;
}

function systemDirectory(dir: string): string[] {
  const stat = lstatOrUndefined(dir);
  if (stat === undefined) return [];
  return stat.isSymbolicLink() ? ['--symlink', readlinkSync(dir), dir] : ['--ro-bind', dir, dir];
}

function lstatOrUndefined(path: string) {
  try {
    return lstatSync(path);
  } catch {
    return undefined;
  }
}
