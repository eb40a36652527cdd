import { afterEach, beforeEach, describe, expect, it } from '@jest/globals';
import { mkdirSync, readdirSync, readFileSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import type { Tool } from '@talon/tool-runtime';
import { createWorkspaceFixture, type WorkspaceFixture } from '../test/workspace-fixture.js';
import { createDevTools } from './create-dev-tools.js';
import { PathOutsideWorkspaceError } from './path-outside-workspace-error.js';

let fixture: WorkspaceFixture;
let tools: Map<string, Tool>;

beforeEach(() => {
  fixture = createWorkspaceFixture();
  fixture.write('inside.txt', 'hello\n');
  mkdirSync(join(fixture.root, 'sub'));
  symlinkSync('/etc', join(fixture.root, 'etc-link'));
  symlinkSync(fixture.outside, join(fixture.root, 'out-dir'));
  symlinkSync(join(fixture.outside, 'secret.txt'), join(fixture.root, 'secret-link'));
  mkdirSync(join(fixture.root, 'chain'));
  symlinkSync('../out-dir', join(fixture.root, 'chain', 'hop'));
  symlinkSync(join(fixture.outside, 'planted.txt'), join(fixture.root, 'dangling'));
  tools = new Map(createDevTools({ root: fixture.root }).map((tool) => [tool.definition.name, tool]));
});
afterEach(() => fixture.cleanup());

function patchCreating(path: string): string {
  return `--- /dev/null\n+++ ${path}\n@@ -0,0 +1 @@\n+pwned\n`;
}

function patchModifying(path: string): string {
  return `--- ${path}\n+++ ${path}\n@@ -1 +1 @@\n-TOP SECRET\n+pwned\n`;
}

// [tool, params, expected reason]: every one must be refused with PATH_OUTSIDE_WORKSPACE.
const ATTEMPTS: [string, Record<string, unknown>, string][] = [
  ['read_file', { path: '../outside/secret.txt' }, 'parent_traversal'],
  ['read_file', { path: '../../../../../../etc/passwd' }, 'parent_traversal'],
  ['read_file', { path: '/etc/passwd' }, 'absolute_outside'],
  ['read_file', { path: 'etc-link/passwd' }, 'symlink_escape'],
  ['read_file', { path: 'secret-link' }, 'symlink_escape'],
  ['read_file', { path: 'chain/hop/secret.txt' }, 'symlink_escape'],
  ['read_file', { path: 'inside.txt\0../../etc/passwd' }, 'nul_byte'],
  ['read_file', { path: 'sub/../../outside/secret.txt' }, 'parent_traversal'],
  ['read_file', { path: '~/../outside/secret.txt' }, 'home_expansion'],
  ['read_file', { path: '..\\outside\\secret.txt' }, 'backslash'],
  ['write_file', { path: '../outside/new.txt', content: 'x' }, 'parent_traversal'],
  ['write_file', { path: '/tmp/talon-escape.txt', content: 'x' }, 'absolute_outside'],
  ['write_file', { path: 'out-dir/new.txt', content: 'x' }, 'symlink_escape'],
  ['write_file', { path: 'chain/hop/deep/new.txt', content: 'x' }, 'symlink_escape'],
  ['write_file', { path: 'secret-link', content: 'x' }, 'symlink_write'],
  ['write_file', { path: 'dangling', content: 'x' }, 'symlink_write'],
  ['write_file', { path: 'sub/./../../x.txt', content: 'x' }, 'parent_traversal'],
  ['write_file', { path: 'sub/../', content: 'x' }, 'is_root'],
  ['list_dir', { path: '..' }, 'parent_traversal'],
  ['list_dir', { path: 'etc-link' }, 'symlink_escape'],
  ['list_dir', { path: '/' }, 'absolute_outside'],
  ['list_dir', { path: 'out-dir/' }, 'symlink_escape'],
  ['glob', { pattern: '../outside/*' }, 'parent_traversal'],
  ['glob', { pattern: '/etc/*' }, 'absolute_outside'],
  ['glob', { pattern: '*', path: 'out-dir' }, 'symlink_escape'],
  ['grep', { pattern: 'SECRET', path: '../outside' }, 'parent_traversal'],
  ['grep', { pattern: 'root', path: 'etc-link/passwd' }, 'symlink_escape'],
  ['grep', { pattern: 'SECRET', include: '../**' }, 'parent_traversal'],
  ['apply_patch', { patch: patchCreating('../outside/evil.txt') }, 'parent_traversal'],
  ['apply_patch', { patch: patchCreating('/tmp/talon-evil.txt') }, 'absolute_outside'],
  ['apply_patch', { patch: patchModifying('secret-link') }, 'symlink_write'],
  ['apply_patch', { patch: patchModifying('out-dir/secret.txt') }, 'symlink_escape'],
  ['apply_patch', { patch: patchCreating('b/../../outside/evil.txt') }, 'parent_traversal'],
];

describe('every dev tool stays inside the workspace', () => {
  it(`has at least 20 escape attempts (${ATTEMPTS.length})`, () => {
    expect(ATTEMPTS.length).toBeGreaterThanOrEqual(20);
  });

  it.each(ATTEMPTS)('%s %j is refused (%s)', async (name, params, reason) => {
    const error = await tools
      .get(name)!
      .execute(params, fixture.context)
      .then(
        () => undefined,
        (caught: unknown) => caught,
      );
    expect(error).toBeInstanceOf(PathOutsideWorkspaceError);
    expect((error as PathOutsideWorkspaceError).details).toMatchObject({ reason });
    // Nothing outside changed.
    expect(readdirSync(fixture.outside)).toEqual(['secret.txt']);
    expect(readFileSync(join(fixture.outside, 'secret.txt'), 'utf8')).toBe('TOP SECRET\n');
  });

  it('glob and grep over the whole root never report what lies behind links out', async () => {
    const globbed = (await tools.get('glob')!.execute({ pattern: '**/*', dot: true }, fixture.context)) as {
      matches: string[];
    };
    expect(globbed.matches).toEqual(['inside.txt']);
    const grepped = (await tools.get('grep')!.execute({ pattern: 'SECRET|root' }, fixture.context)) as {
      matches: unknown[];
    };
    expect(grepped.matches).toEqual([]);
  });

  it('list_dir shows links as links without following them', async () => {
    const listed = (await tools.get('list_dir')!.execute({ depth: 3 }, fixture.context)) as {
      entries: { path: string; type: string }[];
    };
    expect(listed.entries.map((entry) => `${entry.path}:${entry.type}`)).toEqual([
      'chain:directory',
      'chain/hop:symlink',
      'dangling:symlink',
      'etc-link:symlink',
      'inside.txt:file',
      'out-dir:symlink',
      'secret-link:symlink',
      'sub:directory',
    ]);
  });
});
