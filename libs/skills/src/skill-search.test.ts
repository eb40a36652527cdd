import { describe, expect, it } from '@jest/globals';
import { makeSkill } from '../test/loaded-skill-fixture.js';
import { SkillSearch } from './skill-search.js';

describe('SkillSearch', () => {
  const search = new SkillSearch([
    makeSkill({
      name: 'release-notes',
      description: 'Write release notes from the changelog.',
      frontMatter: 'activation:\n  keywords: [changelog]\n  tags: [docs]',
    }),
    makeSkill({
      name: 'incident-triage',
      description: 'Triage production incidents and outages.',
      frontMatter: 'activation:\n  keywords: [outage]',
    }),
    makeSkill({
      name: 'chinese-writing',
      description: '中文写作与润色。',
      frontMatter: 'activation:\n  keywords: [润色]',
    }),
  ]);

  it('ranks name, keyword, tag and description matches with reasons', () => {
    const hits = search.search('release notes');
    expect(hits[0]!.skill.name).toBe('release-notes');
    expect(hits[0]!.reasons[0]).toBe('name equals the query');
    expect(search.search('outage')[0]!.skill.name).toBe('incident-triage');
    expect(search.search('docs')[0]!.reasons).toContain('tags: docs');
    expect(search.search('帮我润色文章')[0]!.skill.name).toBe('chinese-writing');
    expect(search.search('production incidents')[0]!.skill.name).toBe('incident-triage');
  });

  it('returns nothing for blank or unrelated queries and honours the limit', () => {
    expect(search.search('   ')).toEqual([]);
    expect(search.search('zzzz qqqq')).toEqual([]);
    expect(search.search('write', 1)).toHaveLength(1);
  });
});
