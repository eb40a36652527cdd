import { describe, expect, it } from '@jest/globals';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { TalonError } from '@talon/errors';
import { parseSkillsConfig } from './skills-config.js';

describe('parseSkillsConfig', () => {
  it('applies defaults and reads the environment', () => {
    const config = parseSkillsConfig(
      { HOME: '/home/u', SKILLS_DIR: 'mine', SKILLS_MAX_ACTIVE: '5' },
      '/work',
    );
    expect(config).toEqual({
      dirs: { workspace: '/work/skills', user: '/work/mine', installed: '/home/u/.talon/installed-skills' },
      registryDir: '/work/registry/skills',
      maxActive: 5,
      maxContextTokens: 4000,
      similarityThreshold: 0.25,
      settings: {},
      mode: 'prefilter',
      indexMaxTokens: 1500,
    });
    expect(parseSkillsConfig({ SKILLS_MODE: 'hybrid', SKILLS_INDEX_MAX_TOKENS: '800' }, '/w')).toMatchObject({
      mode: 'hybrid',
      indexMaxTokens: 800,
    });
    expect(() => parseSkillsConfig({ SKILLS_MODE: 'auto' }, '/w')).toThrow(/SKILLS_MODE=auto must be one of/);
  });

  it('reads the settings that requires.config keys are looked up in, and names a broken file', () => {
    const dir = mkdtempSync(join(tmpdir(), 'talon-skills-settings-'));
    writeFileSync(join(dir, 'settings.json5'), '{browser: {enabled: true}, // comment\n}');
    writeFileSync(join(dir, 'list.json'), '[1]');
    expect(parseSkillsConfig({ SKILLS_SETTINGS_FILE: 'settings.json5' }, dir).settings).toEqual({
      browser: { enabled: true },
    });
    expect(() => parseSkillsConfig({ SKILLS_SETTINGS_FILE: 'list.json' }, dir)).toThrow(/must hold a JSON object/);
    expect(() => parseSkillsConfig({ SKILLS_SETTINGS_FILE: 'missing.json' }, dir)).toThrow(/cannot be read/);
    rmSync(dir, { recursive: true, force: true });
  });

  it('names every bad variable in one error', () => {
    let error: unknown;
    try {
      parseSkillsConfig(
        { SKILLS_MAX_ACTIVE: 'lots', SKILLS_MAX_CONTEXT_TOKENS: '-1', SKILLS_SIMILARITY_THRESHOLD: '2' },
        '/w',
      );
    } catch (caught) {
      error = caught;
    }
    expect(TalonError.isInstance(error)).toBe(true);
    expect((error as Error).message).toMatch(
      /SKILLS_SIMILARITY_THRESHOLD=2.*SKILLS_MAX_ACTIVE=lots.*SKILLS_MAX_CONTEXT_TOKENS=-1/,
    );
  });
});
