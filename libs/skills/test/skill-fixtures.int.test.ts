import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { chmod, cp, mkdir, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { discoverSkills, readSkillFile, type SkillSnapshot } from '../src/index.js';
import { collectTriggers } from '../src/skill-triggers.js';

const FIXTURES = join(dirname(fileURLToPath(import.meta.url)), 'fixtures', 'skills');

/** Every fixture and what the parser must do with it: `ok` (loads under its folder name), another name it loads as, or `!reason`. */
const EXPECTED: Record<string, string> = {
  'spec-basic': 'ok',
  'spec-metadata-json5': 'ok',
  'ironclaw-full': 'ok',
  'ironclaw-openclaw-meta': 'ok',
  'ironclaw-clawdbot-legacy': 'ok',
  'clawdbot-toplevel': 'ok',
  'workflow-full': 'ok',
  'workflow-param-map': 'ok',
  'cjk-writing': 'ok',
  'keyword-caps': 'ok',
  'prompt-injection': 'ok',
  'closing-tag-tricks': 'ok',
  'no-name': 'ok',
  'mixed-dialects': 'ok',
  'bom-crlf': 'ok',
  'gated-missing-bin': 'ok',
  'bad-cron': 'ok',
  'bad-yaml': '!bad_yaml',
  'empty-body': '!empty_body',
  'name-mismatch': 'another-name',
  Bad_Name: '!invalid_name',
  'bad--name': '!invalid_name',
  'catastrophic-nested': 'ok',
  'catastrophic-alternation': 'ok',
  'catastrophic-backreference': 'ok',
  'invalid-regex': 'ok',
  'js-front-matter': '!unsupported_front_matter',
  'no-front-matter': '!missing_front_matter',
  'long-description': 'ok',
  'missing-description': '!missing_description',
  'bad-metadata-json5': 'ok',
  'unclosed-front-matter': '!bad_yaml',
  'yaml-list': '!bad_yaml',
  'bad-trigger': 'ok',
};

let work: string;
let snapshot: SkillSnapshot;
let binDir: string;

beforeAll(async () => {
  work = await mkdtemp(join(tmpdir(), 'talon-skill-fixtures-'));
  const skills = join(work, 'skills');
  await cp(FIXTURES, skills, { recursive: true });
  // Generated hostile cases: an oversize file and two ways of linking out of the directory.
  await mkdir(join(skills, 'oversize'));
  await writeFile(join(skills, 'oversize', 'SKILL.md'), `---\nname: oversize\ndescription: big\n---\n${'x'.repeat(70 * 1024)}\n`);
  await mkdir(join(work, 'outside', 'escaped'), { recursive: true });
  await writeFile(join(work, 'outside', 'secret.md'), '---\nname: link-file\ndescription: outside\n---\nsecret\n');
  await writeFile(join(work, 'outside', 'escaped', 'SKILL.md'), '---\nname: link-dir\ndescription: outside\n---\nsecret\n');
  await mkdir(join(skills, 'link-file'));
  await symlink(join(work, 'outside', 'secret.md'), join(skills, 'link-file', 'SKILL.md'));
  await symlink(join(work, 'outside', 'escaped'), join(skills, 'link-dir'));
  // A link that stays inside the directory is fine.
  await symlink(join(skills, 'spec-basic'), join(skills, 'inner-link'));
  binDir = join(work, 'bin');
  await mkdir(binDir);
  await writeFile(join(binDir, 'kubectl'), '#!/bin/sh\n');
  await chmod(join(binDir, 'kubectl'), 0o755);
  await writeFile(join(binDir, 'gh'), 'not executable');
  snapshot = await discoverSkills({ dirs: { workspace: skills }, env: { PATH: binDir, KUBECONFIG: '/k', GITHUB_TOKEN: 't' }, platform: 'linux' });
});

afterAll(async () => {
  await rm(work, { recursive: true, force: true });
});

describe('the fixture set', () => {
  it('has at least 25 SKILL.md files', () => {
    expect(Object.keys(EXPECTED).length).toBeGreaterThanOrEqual(25);
  });

  it.each(Object.entries(EXPECTED))('%s → %s', async (folder, expected) => {
    const result = await readSkillFile(join(FIXTURES, folder, 'SKILL.md'), { skillsRoot: FIXTURES });
    const outcome = result.ok ? (result.skill.name === folder ? 'ok' : result.skill.name) : `!${result.rejection.reason}`;
    expect(outcome).toBe(expected);
    if (!result.ok) expect(result.rejection.message.length).toBeGreaterThan(10);
  });

  it('discovery lists every skill or rejection and never throws', () => {
    const names = snapshot.skills.map((s) => s.name);
    const rejected = Object.fromEntries(snapshot.rejected.map((r) => [r.name, r.reason]));
    for (const [folder, expected] of Object.entries(EXPECTED)) {
      if (expected === 'ok') expect(names).toContain(folder);
      else if (!expected.startsWith('!')) expect(names).toContain(expected);
      else expect([folder, rejected[folder]]).toEqual([folder, expected.slice(1)]);
    }
    // 70 KiB loads now: only the injected text is capped.
    expect(names).toContain('oversize');
    expect(rejected['link-file']).toBe('symlink_escape');
    expect(rejected['link-dir']).toBe('symlink_escape');
    // The link inside the directory loads under its declared name and loses to the folder it points at.
    expect(snapshot.shadowed.map((entry) => entry.name)).toEqual(['spec-basic']);
    expect(global.__talonPwned).toBeUndefined();
  });

  it('drops unsafe or broken patterns with the reason code and keeps the skill', () => {
    const warnings = (name: string) => snapshot.skills.find((s) => s.name === name)!.warnings.join('\n');
    expect(warnings('catastrophic-nested')).toMatch(/dropped \(unsafe_regex\)/);
    expect(warnings('invalid-regex')).toMatch(/dropped \(invalid_regex\)/);
    expect(warnings('bad-trigger')).toMatch(/triggers not understood; kept in metadata.triggers/);
    expect(warnings('long-description')).toMatch(/the index uses the first 1024/);
  });

  it('normalises each dialect', () => {
    const by = (name: string) => snapshot.skills.find((s) => s.name === name)!;
    expect(by('spec-basic').allowedTools).toEqual(['Read', 'Grep', 'git_diff']);
    expect(by('spec-basic').resources).toEqual({ scripts: ['scripts/run.sh'], references: ['references/deep/more.md', 'references/guide.md'], assets: ['assets/logo.txt'] });
    expect(by('spec-metadata-json5').requires).toMatchObject({ bins: ['gh'], env: ['GITHUB_TOKEN'] });
    expect(by('ironclaw-full').activation.patterns.map((p) => p.source)).toEqual(['deploy\\s+to\\s+(staging|production)', 'kubectl\\s+apply']);
    expect(by('ironclaw-openclaw-meta').requires).toEqual({ bins: [], anyBins: ['mpv', 'ffplay', 'vlc'], env: ['MUSIC_DIR'], config: [], os: ['linux', 'darwin'], skills: [], mcp: [] });
    expect(by('ironclaw-clawdbot-legacy').requires.bins).toEqual(['curl']);
    expect(by('clawdbot-toplevel').requires.env).toEqual(['NOTIFY_URL']);
    expect(by('workflow-full').triggers).toHaveLength(4);
    expect(by('workflow-param-map').parameters.map((p) => p.name)).toEqual(['version', 'audience']);
    expect(by('cjk-writing').activation.keywords).toEqual(['写作', '润色', '校对', '中文文章']);
    expect(by('keyword-caps').activation).toMatchObject({ keywords: expect.arrayContaining(['keyword00']), tags: expect.any(Array) });
    expect(by('keyword-caps').activation.keywords).toHaveLength(20);
    expect(by('keyword-caps').activation.patterns).toHaveLength(5);
    expect(by('keyword-caps').activation.tags).toHaveLength(10);
    expect(by('bom-crlf').body).toBe('Line one.\nLine two.');
    expect(by('bom-crlf').activation.keywords).toEqual(['windows']);
    expect(by('mixed-dialects').dialects).toEqual(['agent-skills', 'ironclaw', 'workflow']);
    expect(by('no-name').warnings).toContain('no name declared; the folder name is used');
  });

  it('gates on real PATH lookups, env vars, config files and OS', () => {
    const gating = (name: string) => snapshot.skills.find((s) => s.name === name)!.gating;
    expect(gating('ironclaw-full')).toEqual({ eligible: true, reasons: [] });
    expect(gating('spec-metadata-json5')).toEqual({ eligible: false, reasons: ['binary "gh" is not on PATH'] });
    expect(gating('gated-missing-bin').reasons).toEqual([
      'binary "talon-definitely-missing-binary" is not on PATH',
      'environment variable TALON_DEFINITELY_UNSET_VAR is not set',
      'config key /nonexistent/talon/config.yaml is not set',
    ]);
    expect(gating('ironclaw-openclaw-meta').reasons).toEqual(['none of the binaries "mpv", "ffplay", "vlc" is on PATH', 'environment variable MUSIC_DIR is not set']);
  });

  it('exposes triggers, validating cron expressions', () => {
    const table = collectTriggers(snapshot.skills, new Date('2026-01-05T07:00:00Z'));
    // mixed-dialects needs python3 or python, absent from this PATH: a gated-out skill routes nothing.
    expect(table.commands).toEqual([{ command: '/review', skill: 'workflow-full' }, { command: '/release-notes', skill: 'workflow-param-map' }]);
    expect(table.schedules).toEqual([{ cron: '0 9 * * 1-5', timezone: 'Europe/Berlin', skill: 'workflow-full', nextRun: '2026-01-05T08:00:00.000Z' }]);
    expect(table.webhooks).toEqual(expect.arrayContaining([{ event: 'pull_request.opened', skill: 'workflow-full' }, { event: 'release.published', skill: 'workflow-param-map' }]));
    expect(table.manual).toEqual(['workflow-full', 'workflow-param-map']);
    expect(table.invalid).toEqual([{ skill: 'bad-cron', trigger: '61 25 * * *', reason: expect.stringContaining('invalid cron') }]);
  });
});

declare global {
  var __talonPwned: unknown;
}
