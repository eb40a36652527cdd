import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { cp, mkdir, mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { discoverSkills, readSkillFile, type LoadedSkill, type SkillSnapshot } from '../src/index.js';

/**
 * The compatibility set: SKILL.md files written in the formats people publish (Agent Skills spec, Claude Code
 * extensions, OpenClaw/ClawHub with its vendor blocks, IronClaw, OpenFang, workflow style), each loaded or
 * refused as the Agent Skills client guide says: lenient on cosmetic problems, refusing only what cannot be
 * read as a skill, every refusal with a reason code.
 */
const FIXTURES = join(dirname(fileURLToPath(import.meta.url)), 'fixtures', 'compat');

/** folder → the name it loads as, or the reason it is refused (prefixed with `!`). */
const EXPECTED: Record<string, string> = {
  'vercel-deploy': 'deploy-to-vercel',
  'name-with-spaces': 'name-with-spaces',
  name_underscore: '!invalid_name',
  'leading-hyphen-name': 'leading-hyphen-name',
  'double-hyphen-name': 'double-hyphen-name',
  'Upper Folder': 'upper-folder-ok',
  Neither_Valid: '!invalid_name',
  No_Name_Folder: '!invalid_name',
  'numeric-name': '2048',
  'name-too-long': 'name-too-long',
  'openfang-researcher': 'researcher',
  'clawhub-mastodon': 'clawhub-mastodon',
  'clawhub-mixed-triggers': 'clawhub-mixed-triggers',
  'claude-code-extensions': 'claude-code-extensions',
  'unknown-top-level': 'unknown-top-level',
  'activation-as-string': 'activation-as-string',
  'metadata-as-list': 'metadata-as-list',
  'metadata-bad-json5': 'metadata-bad-json5',
  'tags-as-string': 'tags-as-string',
  'allowed-tools-string': 'allowed-tools-string',
  'max-tokens-string': 'max-tokens-string',
  'pattern-non-string': 'pattern-non-string',
  'unsafe-pattern-dropped': 'unsafe-pattern-dropped',
  'invalid-pattern-dropped': 'invalid-pattern-dropped',
  'parameters-bad-name': 'parameters-bad-name',
  'description-number': 'description-number',
  'keywords-toplevel-string': 'keywords-toplevel-string',
  'unquoted-colon': 'unquoted-colon',
  'unquoted-colon-nested': 'unquoted-colon-nested',
  'unquoted-colon-many': 'unquoted-colon-many',
  'duplicate-keys': 'duplicate-keys',
  'yaml12-strings': 'yaml12-strings',
  'anchors-aliases': 'anchors-aliases',
  'proto-key': 'proto-key',
  'broken-yaml-flow': '!bad_yaml',
  'tab-indented': '!bad_yaml',
  'billion-laughs': '!bad_yaml',
  'front-matter-scalar': '!bad_yaml',
  'long-description-2k': 'long-description-2k',
  'openclaw-requires': 'openclaw-requires',
  'moltbot-requires': 'moltbot-requires',
  'clawdis-requires': 'clawdis-requires',
  'clawdhub-requires': 'clawdhub-requires',
  'moltbot-toplevel': 'moltbot-toplevel',
  'metadata-requires': 'metadata-requires',
  'requires-merged': 'requires-merged',
  'requires-config-missing': 'requires-config-missing',
  'requires-skill-ok': 'requires-skill-ok',
  'requires-skill-missing': 'requires-skill-missing',
  'requires-skill-chain': 'requires-skill-chain',
  'requires-mcp': 'requires-mcp',
  'requires-mcp-missing': 'requires-mcp-missing',
  'requires-os-vendor': 'requires-os-vendor',
  'metadata-version': 'metadata-version',
  'empty-description': '!missing_description',
  'description-list': '!missing_description',
  'only-front-matter': '!empty_body',
  'toml-front-matter': '!missing_front_matter',
  'json-front-matter': '!unsupported_front_matter',
  'anthropic-spec-full': 'anthropic-spec-full',
  'ironclaw-activation': 'ironclaw-activation',
  'workflow-seed': 'workflow-seed',
  'cjk-description': 'cjk-description',
  'crlf-bom-colon': 'crlf-bom-colon',
};

let work: string;
let snapshot: SkillSnapshot;
const skill = (name: string): LoadedSkill => {
  const found = snapshot.skills.find((candidate) => candidate.name === name);
  if (!found) throw new Error(`${name} was not loaded`);
  return found;
};

beforeAll(async () => {
  work = await mkdtemp(join(tmpdir(), 'talon-skill-compat-'));
  const skills = join(work, 'skills');
  await cp(FIXTURES, skills, { recursive: true });
  // A 200 KiB skill loads whole (the old 64 KiB refusal is gone); only what is injected is capped.
  await mkdir(join(skills, 'large-body'));
  await writeFile(
    join(skills, 'large-body', 'SKILL.md'),
    `---\nname: large-body\ndescription: A very long reference skill.\n---\n${'A line of reference text.\n'.repeat(8000)}`,
  );
  snapshot = await discoverSkills({
    dirs: { workspace: skills },
    env: { PATH: '/usr/bin:/bin', BROWSER_TOKEN: 't', CLAWDIS_KEY: 'k', MERGED_ENV: 'm' },
    platform: 'linux',
    settings: { browser: { enabled: true }, voice: { enabled: false }, 'talk.apiKey': '' },
    mcpServers: ['filesystem', 'everything'],
  });
});

afterAll(async () => {
  await rm(work, { recursive: true, force: true });
});

describe('the compatibility fixture set', () => {
  it('has at least 60 SKILL.md files and an expectation for each', async () => {
    const folders = await readdir(FIXTURES);
    expect(folders.length).toBeGreaterThanOrEqual(60);
    expect(folders.sort()).toEqual(Object.keys(EXPECTED).sort());
  });

  it.each(Object.entries(EXPECTED))('%s → %s', async (folder, expected) => {
    const result = await readSkillFile(join(FIXTURES, folder, 'SKILL.md'), { skillsRoot: FIXTURES });
    if (expected.startsWith('!')) {
      expect(result.ok ? 'loaded' : result.rejection.reason).toBe(expected.slice(1));
      if (!result.ok) expect(result.rejection.message.length).toBeGreaterThan(20);
    } else {
      expect(result.ok ? result.skill.name : result.rejection.reason).toBe(expected);
    }
  });

  it('warns about a name that differs from its folder or breaks the rules, and loads it', () => {
    expect(skill('deploy-to-vercel').warnings).toContain(
      'the skill is named "deploy-to-vercel" but its folder is "vercel-deploy"; loaded as "deploy-to-vercel"',
    );
    expect(skill('name-with-spaces').warnings[0]).toMatch(/invalid skill name "PDF Tools".*folder name/);
    expect(skill('researcher').dir).toMatch(/openfang-researcher$/);
  });

  it('reads plain-phrase triggers as activation phrases and keeps what it does not understand', () => {
    expect(skill('clawhub-mastodon').activation.keywords).toEqual([
      'post to mastodon',
      'toot this',
      'share on the fediverse',
    ]);
    expect(skill('clawhub-mastodon').triggers).toEqual([]);
    const mixed = skill('clawhub-mixed-triggers');
    expect(mixed.triggers).toEqual([{ kind: 'command', command: '/toot' }]);
    expect(mixed.activation.keywords).toEqual(['share on mastodon']);
    expect(mixed.metadata['triggers']).toEqual([{ teleport: 'now' }]);
  });

  it('keeps unknown and differently-typed fields in metadata with a warning', () => {
    expect(skill('claude-code-extensions').metadata).toMatchObject({
      'user-invocable': true,
      'disable-model-invocation': false,
      'argument-hint': '[file]',
      model: 'sonnet',
    });
    expect(skill('unknown-top-level').metadata).toMatchObject({ homepage: 'https://example.org/skill', emoji: '🦞' });
    expect(skill('unknown-top-level').warnings).toContain('unknown field "homepage"; kept in metadata.homepage');
    expect(skill('activation-as-string').metadata['activation']).toBe('always');
    expect(skill('metadata-as-list').warnings).toContain('metadata is a list, not a mapping; ignored');
    expect(skill('metadata-bad-json5').warnings[0]).toMatch(/not valid JSON5/);
    expect(skill('parameters-bad-name').metadata['parameters']).toEqual([{ name: 'bad name', type: 'string' }]);
    expect(skill('max-tokens-string').activation.maxContextTokens).toBeUndefined();
    expect(skill('tags-as-string').activation.tags).toEqual(['docs', 'writing', 'release notes']);
    expect(skill('allowed-tools-string').allowedTools).toEqual(['Bash(git:*)', 'Read', 'Write']);
    expect(skill('keywords-toplevel-string').activation.keywords).toEqual(['deploy', 'ship', 'release train']);
    expect(skill('description-number').description).toBe('42');
  });

  it('drops unusable activation patterns with a reason code and keeps the good ones', () => {
    expect(skill('pattern-non-string').activation.patterns.map((p) => p.source)).toEqual(['deploy\\s+now']);
    expect(skill('unsafe-pattern-dropped').activation.patterns.map((p) => p.source)).toEqual(['ship\\s+it']);
    expect(skill('unsafe-pattern-dropped').warnings[0]).toMatch(/dropped \(unsafe_regex\)/);
    expect(skill('invalid-pattern-dropped').warnings[0]).toMatch(/dropped \(invalid_regex\)/);
  });

  it('quotes values with an unquoted ": " and reads YAML 1.2 as yaml 2 does', () => {
    expect(skill('unquoted-colon').description).toBe(
      'Use when you need to control Discord via the discord tool: send messages, react, post stickers.',
    );
    expect(skill('unquoted-colon').warnings[0]).toMatch(/quoted the value of line 3/);
    expect(skill('unquoted-colon-nested').metadata).toEqual({ usage: 'run it like this: tool --flag', author: 'someone' });
    expect(skill('unquoted-colon-many').compatibility).toBe('Requires: git and network access');
    expect(skill('crlf-bom-colon').description).toBe('Windows file: BOM, CRLF and a colon.');
    expect(skill('duplicate-keys').description).toBe('The second description wins.');
    expect(skill('yaml12-strings').metadata).toEqual({ enabled: 'yes', released: '2026-01-01', country: 'NO' });
    expect(skill('anchors-aliases').activation.tags).toEqual(['anchor', 'alias']);
    expect(Object.hasOwn(skill('proto-key').metadata, '__proto__')).toBe(true);
    expect(({} as Record<string, unknown>)['polluted']).toBeUndefined();
  });

  it('loads large files whole and cuts a long description for the index', () => {
    expect(skill('large-body').body.length).toBeGreaterThan(200_000);
    const long = skill('long-description-2k');
    expect([...long.description]).toHaveLength(1024);
    expect(long.description.endsWith('…')).toBe(true);
    expect(long.warnings[0]).toMatch(/the index uses the first 1024/);
  });

  it('reads requirements from every vendor block and gates on config keys, skills and MCP servers', () => {
    const gating = (name: string) => skill(name).gating;
    expect(skill('openclaw-requires').requires).toMatchObject({ bins: ['sh'], env: ['BROWSER_TOKEN'], config: ['browser.enabled'] });
    expect(gating('openclaw-requires')).toEqual({ eligible: true, reasons: [] });
    expect(gating('moltbot-requires').reasons).toEqual(['binary "talon-missing-moltbot-bin" is not on PATH']);
    expect(skill('clawdis-requires').requires).toMatchObject({ env: ['CLAWDIS_KEY'], os: ['linux'] });
    expect(gating('clawdis-requires').eligible).toBe(true);
    expect(skill('clawdhub-requires').requires.anyBins).toEqual(['talon-missing-a', 'sh']);
    expect(gating('clawdhub-requires').eligible).toBe(true);
    expect(gating('moltbot-toplevel').reasons).toEqual(['environment variable MOLT_HOME is not set']);
    expect(gating('metadata-requires').reasons).toEqual(['binary "talon-missing-meta-bin" is not on PATH']);
    expect(skill('requires-merged').requires).toMatchObject({ bins: ['sh'], env: ['MERGED_ENV'] });
    expect(gating('requires-config-missing').reasons).toEqual([
      'config key voice.enabled is not set',
      'config key talk.apiKey is not set',
    ]);
    expect(gating('requires-skill-ok')).toEqual({ eligible: true, reasons: [] });
    expect(gating('requires-skill-missing').reasons).toEqual(['required skill "not-installed-anywhere" is not loaded']);
    expect(gating('requires-skill-chain').reasons).toEqual(['required skill "requires-skill-missing" is gated out']);
    expect(gating('requires-mcp')).toEqual({ eligible: true, reasons: [] });
    expect(gating('requires-mcp-missing').reasons).toEqual(['MCP server "github" is not configured']);
    expect(gating('requires-os-vendor').reasons).toEqual(['runs only on darwin (this host is linux)']);
    expect(skill('metadata-version').version).toBe('2.3.1');
    expect(skill('anthropic-spec-full').version).toBe('1.0');
  });

  it('discovery lists every refusal with its reason code and never throws', () => {
    const refused = Object.fromEntries(snapshot.rejected.map((rejection) => [rejection.name, rejection.reason]));
    const expectedRefusals = Object.fromEntries(
      Object.entries(EXPECTED)
        .filter(([, expected]) => expected.startsWith('!'))
        .map(([folder, expected]) => [folder, expected.slice(1)]),
    );
    expect(refused).toEqual(expectedRefusals);
    expect(snapshot.skills).toHaveLength(Object.keys(EXPECTED).length - Object.keys(expectedRefusals).length + 1);
  });
});
