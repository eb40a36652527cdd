import { describe, expect, it } from '@jest/globals';
import { bubblewrapArguments, SANDBOX_RUN_DIR } from './bubblewrap-arguments.js';
import { sandboxProfile } from './sandbox-profile.js';

const identity = { uid: 65534, gid: 65534, dropFromRoot: true };

/** The value following `flag` each time it occurs (for two-value flags, the first value). */
const valuesOf = (args: string[], flag: string) =>
  args.flatMap((arg, index) => (arg === flag ? [args[index + 1]] : []));

describe('bubblewrapArguments', () => {
  const args = bubblewrapArguments({
    profile: sandboxProfile({ readPaths: ['/opt/talon/node_modules'], writePaths: ['/srv/workspace'] }),
    identity,
    etcDir: '/tmp/etc-x',
    etcEntries: ['resolv.conf', 'ssl'],
    cwd: '/srv/workspace',
    argv: ['/bin/sh', '-c', 'true'],
  });
  const command = args.slice(args.indexOf('--') + 1);
  const options = args.slice(0, args.indexOf('--'));

  it('unshares every namespace, shares nothing back, and dies with its parent in a new session', () => {
    expect(options).toEqual(
      expect.arrayContaining([
        '--unshare-all',
        '--unshare-user',
        '--disable-userns',
        '--die-with-parent',
        '--new-session',
      ]),
    );
    expect(options).not.toContain('--share-net');
    expect(valuesOf(options, '--cap-drop')).toEqual(['ALL']);
    expect(valuesOf(options, '--uid')).toEqual(['65534']);
    expect(valuesOf(options, '--gid')).toEqual(['65534']);
  });

  it('binds the system read-only, the profile paths as asked, and no home directory', () => {
    expect(valuesOf(options, '--ro-bind')).toEqual(
      expect.arrayContaining([
        '/usr',
        '/tmp/etc-x/passwd',
        '/etc/resolv.conf',
        '/etc/ssl',
        '/opt/talon/node_modules',
      ]),
    );
    expect(valuesOf(options, '--bind')).toEqual(['/srv/workspace']);
    expect(options.join(' ')).not.toMatch(/\/home|\/root|\/var\/lib/);
    expect(valuesOf(options, '--ro-bind')).not.toContain('/etc');
    expect(options.slice(options.indexOf('--remount-ro'), options.indexOf('--remount-ro') + 2)).toEqual([
      '--remount-ro',
      '/',
    ]);
  });

  it('gives its own /proc, five devices and a size-capped private /tmp', () => {
    expect(valuesOf(options, '--proc')).toEqual(['/proc']);
    expect(valuesOf(options, '--dev')).toEqual([]);
    expect(valuesOf(options, '--dev-bind-try')).toEqual([
      '/dev/null',
      '/dev/zero',
      '/dev/random',
      '/dev/urandom',
      '/dev/tty',
    ]);
    const size = options.indexOf('--size');
    expect(options.slice(size, size + 4)).toEqual(['--size', String(64 * 1024 * 1024), '--tmpfs', '/tmp']);
  });

  it('runs the command under prlimit with every limit of the profile', () => {
    expect(command.slice(0, 1)).toEqual(['/usr/bin/prlimit']);
    expect(command).toEqual(
      expect.arrayContaining([
        '--cpu=60',
        `--as=${2 * 1024 ** 3}`,
        '--nproc=256',
        `--fsize=${1024 ** 3}`,
        '--nofile=1024',
        '--core=0',
      ]),
    );
    expect(command.slice(-3)).toEqual(['/bin/sh', '-c', 'true']);
    expect(valuesOf(options, '--chdir')).toEqual(['/srv/workspace']);
  });

  it('binds the proxy socket directory only when the network is proxied', () => {
    expect(options).not.toContain(SANDBOX_RUN_DIR);
    const proxied = bubblewrapArguments({
      profile: sandboxProfile({ network: { mode: 'proxy', hosts: ['example.com'] } }),
      identity,
      etcDir: '/tmp/etc-x',
      etcEntries: [],
      cwd: '/',
      runDir: '/tmp/run-x',
      argv: ['true'],
    });
    expect(proxied.join(' ')).toContain(`--bind /tmp/run-x ${SANDBOX_RUN_DIR}`);
    expect(proxied).not.toContain('--share-net');
  });
});
