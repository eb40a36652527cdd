import { mkdirSync, mkdtempSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from '@jest/globals';
import { serviceEntry } from './service-entry.js';

describe('serviceEntry', () => {
  let root: string;
  const compiled = () => join(root, 'apps', 'svc', 'dist', 'main.js');
  const bundled = () => join(root, 'apps', 'svc', 'dist', 'bundle', 'main.mjs');

  /** A built service whose bundle was made from `files` as they are now. */
  function build(files: Record<string, string>): void {
    mkdirSync(join(root, 'apps', 'svc', 'dist', 'bundle'), { recursive: true });
    for (const [file, text] of Object.entries(files)) {
      mkdirSync(join(root, file, '..'), { recursive: true });
      writeFileSync(join(root, file), text);
    }
    writeFileSync(bundled(), '// bundle');
    const inputs = Object.keys(files).map((file) => {
      const stat = statSync(join(root, file));
      return [file, stat.mtimeMs, stat.size];
    });
    writeFileSync(
      join(root, 'apps', 'svc', 'dist', 'bundle', 'inputs.json'),
      JSON.stringify({ files: inputs }),
    );
  }

  beforeEach(() => {
    root = mkdtempSync(join(tmpdir(), 'talon-service-entry-'));
    build({ 'apps/svc/dist/main.js': 'main', 'libs/a/dist/index.js': 'export const a = 1;' });
  });
  afterEach(() => rmSync(root, { recursive: true, force: true }));

  it('starts the bundle while every file it was made from is unchanged', () => {
    expect(serviceEntry(root, 'svc')).toBe(bundled());
  });

  it('starts the compiled entry once a file was compiled again', () => {
    const later = new Date(Date.now() + 5_000);
    utimesSync(join(root, 'libs/a/dist/index.js'), later, later);
    expect(serviceEntry(root, 'svc')).toBe(compiled());
  });

  it('starts the compiled entry when a file changed size or is gone', () => {
    const file = join(root, 'libs/a/dist/index.js');
    const { mtime } = statSync(file);
    writeFileSync(file, 'export const a = 12;');
    utimesSync(file, mtime, mtime);
    expect(serviceEntry(root, 'svc')).toBe(compiled());
    rmSync(file);
    expect(serviceEntry(root, 'svc')).toBe(compiled());
  });

  it('starts the compiled entry without a bundle or with an unreadable list', () => {
    writeFileSync(join(root, 'apps/svc/dist/bundle/inputs.json'), '{not json');
    expect(serviceEntry(root, 'svc')).toBe(compiled());
    rmSync(join(root, 'apps/svc/dist/bundle'), { recursive: true });
    expect(serviceEntry(root, 'other')).toBe(join(root, 'apps', 'other', 'dist', 'main.js'));
    expect(serviceEntry(root, 'svc')).toBe(compiled());
  });
});
