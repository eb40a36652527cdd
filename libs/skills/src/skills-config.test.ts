import { describe, expect, it } from '@jest/globals';
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
    });
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
