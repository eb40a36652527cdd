import { describe, expect, it } from '@jest/globals';
import { createHash } from 'node:crypto';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  collectTriggers,
  discoverSkills,
  installSkill,
  readRegistryEntry,
  SkillSelector,
} from '../src/index.js';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..', '..');
const SKILLS = join(ROOT, 'skills');
const REGISTRY = join(ROOT, 'registry', 'skills');

describe('bundled skills', () => {
  it('all parse, cover the three dialects, and route /review to code-review', async () => {
    const snapshot = await discoverSkills({ dirs: { workspace: SKILLS } });
    expect(snapshot.rejected).toEqual([]);
    expect(snapshot.skills.length).toBeGreaterThanOrEqual(6);
    const dialects = new Set(snapshot.skills.flatMap((s) => s.dialects));
    expect([...dialects].sort()).toEqual(['agent-skills', 'ironclaw', 'workflow']);
    const table = collectTriggers(
      snapshot.skills.map((s) => ({ ...s, gating: { eligible: true, reasons: [] } })),
    );
    expect(table.commands.find((c) => c.command === '/review')?.skill).toBe('code-review');
    expect(table.invalid).toEqual([]);
  });

  it('are selected by realistic messages', async () => {
    const snapshot = await discoverSkills({ dirs: { workspace: SKILLS } });
    const selector = new SkillSelector(
      snapshot.skills.map((s) => ({ ...s, gating: { eligible: true, reasons: [] } })),
    );
    const top = (message: string) => selector.select(message).active[0]?.name;
    expect(top('Can you review this PR #42 before I merge?')).toBe('code-review');
    expect(top('We have a sev1: checkout service is down and 503 errors spike')).toBe('incident-triage');
    expect(top('请帮我润色这封邮件，顺便检查错别字')).toBe('chinese-writing');
    expect(top('Draft the release notes for v2.4.0 please')).toBe('release-notes');
    expect(top('POST /users returns the wrong status code, test the API')).toBe('api-testing');
    expect(
      top(
        'I have a spreadsheet of sales by region; which groups show a trend, and what do the columns tell us?',
      ),
    ).toBe('data-analysis');
  });

  it('registry entries carry the correct sha256 and install', async () => {
    const files = (await readdir(REGISTRY)).filter((f) => f.endsWith('.json'));
    expect(files.length).toBeGreaterThanOrEqual(2);
    const target = await mkdtemp(join(tmpdir(), 'talon-bundled-'));
    try {
      for (const file of files) {
        const entry = await readRegistryEntry(REGISTRY, file.replace(/\.json$/, ''));
        const bytes = await readFile(resolve(REGISTRY, 'path' in entry.source ? entry.source.path : ''));
        expect(createHash('sha256').update(bytes).digest('hex')).toBe(entry.sha256);
        expect(
          (
            await installSkill(
              { source: { kind: 'registry', name: entry.name } },
              { installedDir: target, registryDir: REGISTRY },
            )
          ).trust,
        ).toBe('INSTALLED');
      }
    } finally {
      await rm(target, { recursive: true, force: true });
    }
  });
});
