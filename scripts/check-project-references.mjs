// The house checks itself: every project's nx `implicitDependencies` and tsconfig `references` name every
// @talon library its sources import (tests excluded: they build through tsconfig.test.json), so nx and
// `tsc -b` build in the right order. A missing entry fails (exit 1); an entry nothing imports is a warning.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const IMPORT = /(?:from|import)\s*\(?\s*['"]@talon\/([a-z0-9-]+)(?:\/[a-z0-9-]+)?['"]/g;

function sources(folder) {
  const files = [];
  for (const entry of readdirSync(folder)) {
    const path = join(folder, entry);
    if (statSync(path).isDirectory()) {
      if (entry !== 'dist' && entry !== 'generated' && entry !== 'node_modules') files.push(...sources(path));
    } else if (/\.(ts|mts)$/.test(entry) && !/\.test\.ts$/.test(entry) && !entry.endsWith('.d.ts')) {
      files.push(path);
    }
  }
  return files;
}

const problems = [];
for (const group of ['apps', 'libs']) {
  for (const name of readdirSync(join(root, group))) {
    const dir = join(root, group, name);
    const src = join(dir, 'src');
    let project;
    try {
      project = JSON.parse(readFileSync(join(dir, 'project.json'), 'utf8'));
      statSync(src);
    } catch {
      continue;
    }
    const imported = new Set();
    for (const file of sources(src))
      for (const match of readFileSync(file, 'utf8').matchAll(IMPORT))
        if (match[1] !== name) imported.add(match[1]);
    const tsconfig = JSON.parse(readFileSync(join(dir, 'tsconfig.json'), 'utf8'));
    const referenced = new Set((tsconfig.references ?? []).map((reference) => basename(reference.path)));
    const implicit = new Set(project.implicitDependencies ?? []);
    const compare = (declared, where) => {
      const missing = [...imported].filter((lib) => !declared.has(lib)).sort();
      const extra = [...declared].filter((lib) => !imported.has(lib)).sort();
      if (missing.length) problems.push(`${group}/${name}: ${where} lacks ${missing.join(', ')} (imported)`);
      if (extra.length)
        console.warn(`warning: ${group}/${name}: ${where} names ${extra.join(', ')} (never imported)`);
    };
    compare(referenced, 'tsconfig.json references');
    compare(implicit, 'project.json implicitDependencies');
  }
}
for (const problem of problems) console.error(problem);
if (problems.length) {
  console.error(`${problems.length} project reference problem(s): make them match the imports.`);
  process.exit(1);
}
console.log('project references match the imports');
