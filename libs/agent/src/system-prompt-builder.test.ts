import { describe, expect, it } from '@jest/globals';
import { buildSystemPrompt, SAFETY_PREAMBLE } from './system-prompt-builder.js';

describe('buildSystemPrompt', () => {
  it('puts the safety preamble first, then the workspace prompt, then the skill blocks as given', () => {
    const prompt = buildSystemPrompt({
      workspacePrompt: '  Answer in French.  ',
      skillBlocks: ['<skill name="a">A &lt;b&gt;</skill>', '', '<skill name="c">C</skill>'],
    });
    expect(prompt.startsWith(SAFETY_PREAMBLE)).toBe(true);
    expect(prompt).toContain('untrusted data');
    expect(prompt.indexOf('Answer in French.')).toBeGreaterThan(prompt.indexOf('untrusted'));
    expect(prompt).toContain('<skill name="a">A &lt;b&gt;</skill>\n<skill name="c">C</skill>');
  });

  it('is just the preamble with nothing else', () => {
    expect(buildSystemPrompt()).toBe(SAFETY_PREAMBLE);
    expect(buildSystemPrompt({ workspacePrompt: '   ', skillBlocks: [] })).toBe(SAFETY_PREAMBLE);
  });
});
