import { describe, expect, it } from '@jest/globals';
import { makeSkill } from '../test/loaded-skill-fixture.js';
import { SkillSelector } from './skill-selector.js';

const considered = (selector: SkillSelector, message: string) => selector.select(message).considered;

describe('SkillSelector scoring', () => {
  it('adds keyword points for whole words and their inflections, never inside other words, capped at 30', () => {
    const skill = makeSkill({
      name: 'kw',
      frontMatter: 'activation:\n  keywords: [alpha, beta, gamma, delta, log]',
    });
    const selector = new SkillSelector([skill]);
    expect(considered(selector, 'alpha')[0]!.score).toBe(10);
    expect(considered(selector, 'alphas')[0]!.score).toBe(10);
    expect(considered(selector, 'alphabet')).toEqual([]);
    expect(considered(selector, 'the catalog and a blog')).toEqual([]);
    expect(considered(selector, 'logging and logged logs')[0]!.reasons).toEqual(['keyword "log" +10']);
    const capped = considered(selector, 'alpha beta gamma delta');
    expect(capped[0]!.score).toBe(30);
    expect(capped[0]!.reasons).toContain('keyword points capped at 30 (raw 40)');
  });

  it('adds tags at 3 each capped at 15 and patterns at 20 each capped at 40', () => {
    const skill = makeSkill({
      name: 'tp',
      frontMatter:
        'activation:\n  tags: [one1, two2, three3, four4, five5, six6]\n  patterns: ["err\\\\d+", "code\\\\s+red", "fatal:\\\\s"]',
    });
    const selector = new SkillSelector([skill]);
    expect(considered(selector, 'one1 two2')[0]!.score).toBe(6);
    expect(considered(selector, 'one1 two2 three3 four4 five5 six6')[0]!.score).toBe(15);
    expect(considered(selector, 'err42')[0]!.score).toBe(20);
    const all = considered(selector, 'err42 and code  red and fatal: x');
    expect(all[0]!.score).toBe(40);
    expect(all[0]!.reasons).toContain('pattern points capped at 40 (raw 60)');
  });

  it('matches Latin keywords on word boundaries only, including multi-word and punctuated ones', () => {
    const skill = makeSkill({ name: 'cr', frontMatter: 'activation:\n  keywords: [code review, node.js]' });
    const selector = new SkillSelector([skill]);
    expect(considered(selector, 'Please do a Code Review.')[0]!.reasons[0]).toBe('keyword "code review" +10');
    expect(considered(selector, 'two code reviews')[0]!.reasons[0]).toBe('keyword "code review" +10');
    expect(considered(selector, 'a precode reviewer')).toEqual([]);
    expect(considered(selector, 'code then review')).toEqual([]);
    expect(considered(selector, 'upgrade NODE.JS now')[0]!.score).toBe(10);
    expect(considered(selector, 'node and js')).toEqual([]);
  });

  it('matches CJK keywords without word boundaries, and full-width Latin after folding', () => {
    const skill = makeSkill({ name: 'zh', frontMatter: 'activation:\n  keywords: [写作, 润色, docs]' });
    const selector = new SkillSelector([skill]);
    const result = considered(selector, '请帮我润色这篇文章的写作风格');
    expect(result[0]!.score).toBe(20);
    expect(considered(selector, 'ＤＯＣＳ please')[0]!.score).toBe(10);
    expect(considered(selector, '写一篇')).toEqual([]);
  });

  it('lets any exclude keyword veto the skill', () => {
    const skill = makeSkill({
      name: 'dep',
      frontMatter: 'activation:\n  keywords: [deploy]\n  exclude_keywords: [dry run, 测试环境]',
    });
    const selector = new SkillSelector([skill]);
    const result = selector.select('deploy as a dry run');
    expect(result.active).toEqual([]);
    expect(result.considered[0]).toMatchObject({ outcome: 'vetoed', score: 0 });
    expect(result.considered[0]!.reasons[0]).toBe('vetoed: exclude keyword "dry run" found');
    expect(selector.select('deploy 到测试环境').active).toEqual([]);
    expect(selector.select('deploy now').active).toHaveLength(1);
  });
});

describe('SkillSelector limits', () => {
  const skills = [
    makeSkill({
      name: 'big',
      frontMatter: 'activation:\n  keywords: [shared]\n  patterns: ["shared"]\n  max_context_tokens: 3000',
    }),
    makeSkill({
      name: 'mid',
      frontMatter: 'activation:\n  keywords: [shared]\n  tags: [extra]\n  max_context_tokens: 1500',
    }),
    makeSkill({
      name: 'small-a',
      frontMatter: 'activation:\n  keywords: [shared]\n  max_context_tokens: 500',
    }),
    makeSkill({
      name: 'small-b',
      frontMatter: 'activation:\n  keywords: [shared]\n  max_context_tokens: 400',
    }),
    makeSkill({ name: 'small-c', frontMatter: 'activation:\n  keywords: [shared]', body: 'x'.repeat(400) }),
  ];

  it('fills the token budget greedily by score, skipping what does not fit, up to max active', () => {
    const result = new SkillSelector(skills).select('shared extra');
    expect(result.active.map((s) => [s.name, s.score, s.costTokens])).toEqual([
      ['big', 30, 3000],
      ['small-a', 10, 500],
      ['small-b', 10, 400],
    ]);
    expect(result.tokensUsed).toBe(3900);
    const outcome = Object.fromEntries(result.considered.map((c) => [c.name, c.outcome]));
    expect(outcome).toEqual({
      big: 'active',
      'small-a': 'active',
      'small-b': 'active',
      mid: 'over_budget',
      'small-c': 'over_max_active',
    });
    expect(result.considered.find((c) => c.name === 'mid')!.reasons.at(-1)).toBe(
      'not activated: costs 1500 tokens, 1000 of 4000 left',
    );
    expect(result.considered.find((c) => c.name === 'small-c')!.costTokens).toBe(100);
  });

  it('honours per-call max active and budget, and the constructor defaults', () => {
    expect(new SkillSelector(skills).select('shared', { maxActive: 1 }).active.map((s) => s.name)).toEqual([
      'big',
    ]);
    expect(
      new SkillSelector(skills).select('shared', { maxContextTokens: 1000 }).active.map((s) => s.name),
    ).toEqual(['small-a', 'small-b', 'small-c']);
    expect(
      new SkillSelector(skills, { maxActive: 5, maxContextTokens: 100_000 }).select('shared').active,
    ).toHaveLength(5);
    expect(new SkillSelector(skills).select('shared', { maxActive: 0 }).active).toEqual([]);
  });

  it('always activates /name and $name mentions, even past the limits, and routes command triggers', () => {
    const withCommand = [
      ...skills,
      makeSkill({ name: 'reviewer', frontMatter: 'triggers: [/review]', body: 'r'.repeat(40_000) }),
    ];
    const result = new SkillSelector(withCommand).select('shared stuff, then $mid and /review please', {
      maxActive: 2,
    });
    // Mentions bypass the limits but still use them up: with max active 2 no keyword skill fits.
    expect(result.active.map((s) => s.name)).toEqual(['mid', 'reviewer']);
    expect(result.considered.find((c) => c.name === 'big')!.outcome).toBe('over_max_active');
    // A mentioned skill's injection is cut to the budget (4,000 tokens by default), with a visible marker.
    expect(result.tokensUsed).toBe(1500 + 4000);
    expect(result.active[1]!.injection).toMatch(/skill body cut at about 4000 tokens/);
    expect(result.active[0]!.reasons[0]).toBe('mentioned as $mid: always active');
    expect(result.active[1]!.reasons[0]).toBe('mentioned as /review (command of reviewer): always active');
    expect(result.active[1]!.tier).toBe('mention');
    expect(result.active.map((s) => s.invocation)).toEqual(['$mid and /review please', '/review please']);
  });

  it('does not treat paths or URLs as mentions, and reports gated-out mentions', () => {
    const gated = makeSkill({ name: 'gated', eligible: false });
    const selector = new SkillSelector([...skills, gated]);
    const paths = selector.select('open src/mid and https://x.org/big');
    expect(paths.considered.filter((c) => c.tier === 'mention')).toEqual([]);
    const result = selector.select('/gated now');
    expect(result.active).toEqual([]);
    expect(result.considered[0]).toMatchObject({ name: 'gated', outcome: 'gated_out' });
  });
});

describe('SkillSelector similarity tier', () => {
  const skills = [
    makeSkill({
      name: 'incident-triage',
      description:
        'Triage production incidents: gather logs, find the failing service, estimate impact and write a status update.',
      frontMatter: 'activation:\n  keywords: [incident]',
    }),
    makeSkill({
      name: 'release-notes',
      description: 'Write release notes from merged pull requests and the changelog.',
      frontMatter: 'activation:\n  keywords: [release notes]',
    }),
    makeSkill({ name: 'chinese-writing', description: '中文写作助手：润色文章、修改语病、调整段落结构。' }),
  ];
  const selector = new SkillSelector(skills);

  it('ranks by BM25 relevance when no keyword matches, above the threshold, with the reason', () => {
    const result = selector.select('the payment service is failing in production, logs show timeouts');
    expect(result.active.map((s) => s.name)).toEqual(['incident-triage']);
    expect(result.active[0]!.tier).toBe('similarity');
    expect(result.active[0]!.reasons[0]).toMatch(
      /^lexical relevance 0?\.?\d+ × 40 \(BM25 over name, description, headings; terms: .*(production|servic|fail)/,
    );
  });

  it('never lets a keyword hit on one skill hide the description match of another', () => {
    const result = selector.select('write release notes for the failing production service incident');
    const names = result.considered.map((entry) => entry.name);
    expect(names).toEqual(expect.arrayContaining(['incident-triage', 'release-notes']));
    const triage = result.considered.find((entry) => entry.name === 'incident-triage')!;
    expect(triage.reasons.join('\n')).toMatch(/keyword "incident" \+10[\s\S]*lexical relevance/);
  });

  it('uses character bigrams for CJK text', () => {
    const result = selector.select('帮我修改这篇文章的段落结构');
    expect(result.active.map((s) => s.name)).toEqual(['chinese-writing']);
  });

  it('marks keyword hits as such and activates nothing when nothing is similar enough', () => {
    expect(selector.select('incident in the payment service').active.map((s) => s.tier)).toEqual(['keyword']);
    expect(selector.select('what a lovely afternoon for a walk').active).toEqual([]);
  });
});

describe('SkillSelector injection', () => {
  it('renders parameters and marks installed skills', () => {
    const skill = makeSkill({
      name: 'param',
      trust: 'INSTALLED',
      frontMatter:
        'activation:\n  keywords: [param]\nparameters:\n  - {name: who, type: string, default: world}',
      body: 'Hello {{who}} </skill>',
    });
    const result = new SkillSelector([skill]).select('param', { parameters: { param: { who: 'Ada' } } });
    expect(result.injection).toMatch(
      /^<skill name="param" version="0\.0\.0" trust="INSTALLED">\nHello Ada \[\/skill&gt;\n\nNotice: /,
    );
    expect(result.active[0]!.costTokens).toBeGreaterThan(0);
  });

  it('activates a skill whose required parameter is missing with an instruction to ask the user for it', () => {
    const skill = makeSkill({
      name: 'needs',
      frontMatter:
        'activation:\n  keywords: [needs]\nparameters:\n  - {name: target, type: string, required: true, description: what to check}',
    });
    const result = new SkillSelector([skill]).select('needs');
    expect(result.active.map((entry) => entry.name)).toEqual(['needs']);
    expect(result.active[0]!.injection).toContain('- target (string: what to check)');
    expect(result.active[0]!.injection).toContain('Ask the user for them and do not guess.');
    const given = new SkillSelector([skill]).select('needs', { parameters: { needs: { target: 'x' } } });
    expect(given.active[0]!.injection).not.toContain('Ask the user');
  });

  it('reports a skill whose parameter has the wrong type as render_failed', () => {
    const skill = makeSkill({
      name: 'needs',
      frontMatter:
        'activation:\n  keywords: [needs]\nparameters:\n  - {name: target, type: string, required: true}',
    });
    const result = new SkillSelector([skill]).select('needs', { parameters: { needs: { target: 3 } } });
    expect(result.active).toEqual([]);
    expect(result.considered[0]).toMatchObject({
      outcome: 'render_failed',
      reasons: expect.arrayContaining([expect.stringContaining('target must be of type string')]),
    });
  });
});
