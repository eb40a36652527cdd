import { afterEach, beforeAll, describe, expect, it } from '@jest/globals';
import { chmodSync, existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  compileSeccompProfile,
  parseSeccompProfile,
  readX86_64SyscallTable,
  type SeccompProfile,
  type SyscallTable,
} from '@talon/seccomp';
import { REPO_ROOT } from '@talon/testing';
import {
  emulatedContainerSkipReason,
  runInEmulatedContainer,
  type EmulatedContainer,
} from './support/emulated-container.js';

const SHIPPED_PROFILE = join(REPO_ROOT, 'deploy/seccomp/wasm-runner.json');
const CONTAINER_SHELL = join(REPO_ROOT, 'apps/wasm-runner/test/support/container-shell.mjs');
const WORKSPACE = '/var/lib/talon/workspace';
/** What bubblewrap needs beyond an ordinary program; Docker allows these only with CAP_SYS_ADMIN. */
const SANDBOX_CALLS = ['clone', 'clone3', 'unshare', 'mount', 'umount2', 'pivot_root'];
/** CLONE_NEWNS | NEWCGROUP | NEWUTS | NEWIPC | NEWUSER | NEWPID | NEWNET: clone without them is a fork. */
const CLONE_NAMESPACE_FLAGS = 0x7e020000;
const ENOSYS = 38;

interface Report {
  status: { mode: string; detail?: string };
  logs: Array<{ level: string; msg: string; reason?: string; fix?: string }>;
  results: Array<{
    ok: boolean;
    exitCode?: number;
    stdout?: string;
    stderr?: string;
    code?: string;
    message?: string;
  }>;
  hits: string[];
  containerEtcWritable: boolean;
  etcPwned: boolean;
}

/**
 * The shipped profile as Docker's default treats a container without CAP_SYS_ADMIN: everything else the
 * same, but clone only without namespace flags, clone3 answered ENOSYS (so glibc falls back to clone), and
 * unshare, mount, umount2, pivot_root refused. `plus` adds names back, as an operator's edited copy would.
 */
function dockerDefaultLike(shipped: SeccompProfile, plus: readonly string[] = []): SeccompProfile {
  const removed = SANDBOX_CALLS.filter((name) => !plus.includes(name));
  return {
    ...shipped,
    syscalls: [
      ...shipped.syscalls
        .map((rule) => ({ ...rule, names: rule.names.filter((name) => !removed.includes(name)) }))
        .filter((rule) => rule.names.length > 0),
      {
        names: ['clone'],
        action: 'SCMP_ACT_ALLOW',
        args: [{ index: 0, value: BigInt(CLONE_NAMESPACE_FLAGS), valueTwo: 0n, op: 'SCMP_CMP_MASKED_EQ' }],
      },
      { names: ['clone3'], action: 'SCMP_ACT_ERRNO', errnoRet: ENOSYS, args: [] },
    ],
  };
}

const skipReason = emulatedContainerSkipReason();
const suite = skipReason === undefined ? describe : describe.skip;

/**
 * The wasm-runner's container settings, tested without a Docker engine: the runner's own sandbox start
 * and `shell` tool run as root inside a container built from the same kernel mechanisms (see
 * emulated-container.ts), under seccomp filters compiled from Docker-format profiles. What cannot be
 * emulated here is AppArmor (docs/security.md says what that means for `apparmor=unconfined`).
 */
suite(`the wasm-runner's sandbox inside a container${skipReason ? ` (skipped: ${skipReason})` : ''}`, () => {
  let table: SyscallTable;
  let shipped: SeccompProfile;
  let volume: string;

  beforeAll(() => {
    table = readX86_64SyscallTable();
    shipped = parseSeccompProfile(JSON.parse(readFileSync(SHIPPED_PROFILE, 'utf8')));
  });

  afterEach(() => rmSync(volume, { recursive: true, force: true }));

  const runRunner = async (
    profile: SeccompProfile,
    systemPaths: EmulatedContainer['systemPaths'],
    commands: Array<{ command: string; grantCanary?: boolean }>,
  ): Promise<Report> => {
    volume = mkdtempSync(join(tmpdir(), 'talon-container-volume-'));
    // A named volume's directory, as Docker creates it: traversable by the sandbox user.
    chmodSync(volume, 0o755);
    const { program, unknownNames } = compileSeccompProfile(profile, table);
    expect(unknownNames).toEqual([]);
    const result = await runInEmulatedContainer({
      seccomp: program,
      systemPaths,
      readPaths: [REPO_ROOT],
      volumes: [[volume, '/var/lib/talon']],
      argv: ['/usr/bin/node', CONTAINER_SHELL, JSON.stringify({ workspaceDir: WORKSPACE, commands })],
      timeoutMs: 90_000,
    });
    expect({ code: result.code, stderr: result.stderr }).toEqual({ code: 0, stderr: '' });
    return JSON.parse(result.stdout) as Report;
  };

  const expectRefused = (report: Report, reason: RegExp) => {
    expect(report.status.mode).toBe('unavailable');
    expect(report.status.detail).toMatch(reason);
    expect(report.logs).toContainEqual(
      expect.objectContaining({
        level: 'error',
        msg: 'sandbox unavailable: shell and stdio MCP servers will be refused',
      }),
    );
    expect(report.results).toHaveLength(1);
    expect(report.results[0]).toMatchObject({ ok: false, code: 'SANDBOX_UNAVAILABLE' });
    expect(report.results[0].message).toContain('shell refused: the process sandbox is unavailable');
    expect(report.results[0].message).toContain('docker-compose.yml');
    expect(existsSync(join(volume, 'workspace/ran.txt'))).toBe(false);
  };

  it("with Docker's defaults (its seccomp rules, masked /proc) the sandbox is unavailable and shell is refused", async () => {
    const report = await runRunner(dockerDefaultLike(shipped), 'masked', [{ command: 'echo ran > ran.txt' }]);
    expectRefused(report, /No permissions to create new namespace/);
  }, 120_000);

  it('adding only unshare, mount, umount2, pivot_root is not enough: clone with namespace flags is still refused', async () => {
    const report = await runRunner(
      dockerDefaultLike(shipped, ['unshare', 'mount', 'umount2', 'pivot_root']),
      'unconfined',
      [{ command: 'echo ran > ran.txt' }],
    );
    expectRefused(report, /No permissions to create new namespace/);
  }, 120_000);

  it("the shipped profile with Docker's masked /proc is still refused: a new procfs needs systempaths=unconfined", async () => {
    const report = await runRunner(shipped, 'masked', [{ command: 'echo ran > ran.txt' }]);
    expectRefused(report, /Can't mount proc/);
  }, 120_000);

  it('the shipped profile with systempaths=unconfined runs shell sandboxed, and the sandbox still holds', async () => {
    const report = await runRunner(shipped, 'unconfined', [
      { command: 'echo made > inside.txt; id -u; grep -E "^(Seccomp|NoNewPrivs|CapEff)" /proc/self/status' },
      { command: 'echo x > /etc/talon-pwned; echo x > /var/lib/talon/pwned; echo done' },
      { command: 'curl -sS -m 3 http://127.0.0.1:$CANARY_PORT/direct; echo "exit=$?"' },
      { command: 'curl -sS -m 10 http://127.0.0.1:$CANARY_PORT/proxied', grantCanary: true },
    ]);
    expect(report.status.mode).toBe('bubblewrap');
    const [inside, write, direct, proxied] = report.results;
    // Runs as the unprivileged sandbox user, under the container's seccomp filter, with no capabilities.
    expect(inside).toMatchObject({ ok: true, exitCode: 0 });
    expect(inside.stdout).toMatch(/^65534\n/);
    expect(inside.stdout).toMatch(/Seccomp:\s+2/);
    expect(inside.stdout).toMatch(/CapEff:\s+0000000000000000/);
    expect(inside.stdout).toMatch(/NoNewPrivs:\s+1/);
    expect(readFileSync(join(volume, 'workspace/inside.txt'), 'utf8')).toBe('made\n');
    // The container's /etc is writable to the runner, not to the sandbox; nor is the volume outside the workspace.
    expect(write).toMatchObject({ ok: true, stdout: 'done\n' });
    expect(report.containerEtcWritable).toBe(true);
    expect(report.etcPwned).toBe(false);
    expect(existsSync(join(volume, 'pwned'))).toBe(false);
    // No network: the container's loopback is not reached directly; a granted host is, through the proxy.
    expect(direct.stdout).toMatch(/exit=[1-9]/);
    expect(proxied.stderr).toBe('');
    expect(proxied).toMatchObject({ ok: true, exitCode: 0, stdout: 'canary reached\n' });
    expect(report.hits).toEqual(['GET /proxied']);
  }, 120_000);
});
