import { chmodSync, existsSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { SandboxIdentity } from './sandbox-identity.js';

/** The user name a sandboxed process sees for itself. */
export const SANDBOX_USER = 'sandbox';
/** The hostname inside a sandbox. */
export const SANDBOX_HOSTNAME = 'talon-sandbox';

/** Host files and directories of `/etc` a sandbox sees read-only, when they exist. */
export const SHARED_ETC_ENTRIES = [
  'resolv.conf',
  'ssl',
  'ca-certificates',
  'ca-certificates.conf',
  'alternatives',
  'ld.so.cache',
  'nsswitch.conf',
  'localtime',
] as const;

/**
 * A directory of generated `/etc` files (passwd and group with only root and the sandbox user, hosts with
 * only localhost), written once per process and bound read-only into every sandbox.
 */
export function writeSandboxEtc(identity: SandboxIdentity): string {
  const dir = mkdtempSync(join(tmpdir(), 'talon-sandbox-etc-'));
  chmodSync(dir, 0o755);
  const files: Record<string, string> = {
    passwd:
      'root:x:0:0:root:/nonexistent:/usr/sbin/nologin\n' +
      `${SANDBOX_USER}:x:${identity.uid}:${identity.gid}:Talon sandbox:/nonexistent:/bin/sh\n`,
    group: `root:x:0:\n${SANDBOX_USER}:x:${identity.gid}:\n`,
    hosts: `127.0.0.1 localhost ${SANDBOX_HOSTNAME}\n::1 localhost\n`,
    hostname: `${SANDBOX_HOSTNAME}\n`,
  };
  for (const [name, content] of Object.entries(files))
    writeFileSync(join(dir, name), content, { mode: 0o644 });
  return dir;
}

/** The shared `/etc` entries present on this host. */
export function presentEtcEntries(): string[] {
  return SHARED_ETC_ENTRIES.filter((entry) => existsSync(join('/etc', entry)));
}
