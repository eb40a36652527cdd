import { describe, expect, it } from '@jest/globals';
import { parseSkillText } from './skill-parser.js';

const origin = (name: string) => ({ path: `/skills/${name}/SKILL.md` });

function parse(name: string, front: string, body = 'Body.') {
  return parseSkillText(`---\nname: ${name}\n${front}\n---\n${body}\n`, origin(name));
}

describe('parseSkillText', () => {
  it('normalises the IronClaw dialect: folded keywords, guarded patterns, requires, declared cost', () => {
    const result = parse(
      'deploy',
      'description: Deploys.\nversion: 3\nactivation:\n  keywords: [Deploy, ＲＯＬＬＢＡＣＫ]\n  exclude_keywords: [Undeploy]\n  patterns: ["deploy\\\\s+now"]\n  max_context_tokens: 120\nrequires:\n  bins: [kubectl]\n  anyBins: [helm, kustomize]\n  os: [linux]',
    );
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    expect(result.skill.version).toBe('3');
    expect(result.skill.activation.keywords).toEqual(['deploy', 'rollback']);
    expect(result.skill.activation.excludeKeywords).toEqual(['undeploy']);
    expect(result.skill.activation.patterns[0]!.requiredLiteral).toBe('deploy');
    expect(result.skill.activation.maxContextTokens).toBe(120);
    expect(result.skill.requires).toEqual({
      bins: ['kubectl'],
      anyBins: ['helm', 'kustomize'],
      env: [],
      config: [],
      os: ['linux'],
      skills: [],
      mcp: [],
    });
    expect(result.skill.dialects).toEqual(['ironclaw']);
  });

  it('reads JSON5 metadata strings and the openclaw requires block', () => {
    const result = parse(
      'gh',
      `description: GitHub.\nmetadata: '{openclaw: {requires: {bins: ["gh"], env: ["GH_TOKEN"],},},}'`,
    );
    expect(result.ok && result.skill.requires.bins).toEqual(['gh']);
    expect(result.ok && result.skill.requires.env).toEqual(['GH_TOKEN']);
    expect(result.ok && result.skill.metadata).toEqual({
      openclaw: { requires: { bins: ['gh'], env: ['GH_TOKEN'] } },
    });
  });

  it('keeps two-character CJK terms but drops one CJK character and short Latin terms', () => {
    const result = parse('zh', 'description: 中文.\nactivation:\n  keywords: [写作, 写, ab, abc, "AI写"]');
    expect(result.ok && result.skill.activation.keywords).toEqual(['写作', 'abc', 'ai写']);
    expect(result.ok && result.skill.warnings.join('\n')).toMatch(/"写" dropped[\s\S]*"ab" dropped/);
  });

  it('caps keywords at 20, patterns at 5 and tags at 10', () => {
    const list = (prefix: string, n: number) =>
      Array.from({ length: n }, (_, i) => `${prefix}${i}`).join(', ');
    const patterns = Array.from({ length: 8 }, (_, i) => `"p${i}x"`).join(', ');
    const result = parse(
      'caps',
      `description: Caps.\nactivation:\n  keywords: [${list('kw', 30)}]\n  patterns: [${patterns}]\n  tags: [${list('tag', 15)}]`,
    );
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    expect(result.skill.activation.keywords).toHaveLength(20);
    expect(result.skill.activation.patterns).toHaveLength(5);
    expect(result.skill.activation.tags).toHaveLength(10);
  });

  it('refuses with stable reasons only what cannot be read as a skill', () => {
    const reason = (r: ReturnType<typeof parseSkillText>) => (r.ok ? 'ok' : r.rejection.reason);
    expect(reason(parse('x-y', 'description: d', '   '))).toBe('empty_body');
    expect(reason(parseSkillText('---\nname: -lead\ndescription: d\n---\nb', origin('Bad_Folder')))).toBe(
      'invalid_name',
    );
    expect(reason(parse('r', 'description: ""'))).toBe('missing_description');
    expect(reason(parseSkillText('x'.repeat(1024 * 1024 + 1), origin('big')))).toBe('too_large');
    expect(reason(parseSkillText('---json\n{"name":"j"}\n---\nb', origin('j')))).toBe(
      'unsupported_front_matter',
    );
  });

  it('loads what the client guide calls cosmetic, with warnings', () => {
    const loaded = (r: ReturnType<typeof parseSkillText>) => {
      if (!r.ok) throw new Error(r.rejection.message);
      return r.skill;
    };
    expect(loaded(parseSkillText('---\nname: -lead\ndescription: d\n---\nb', origin('lead'))).name).toBe('lead');
    const long = loaded(parseSkillText(`---\nname: ${'a'.repeat(65)}\ndescription: d\n---\nb`, origin('short')));
    expect([long.name, long.warnings[0]]).toEqual(['short', expect.stringMatching(/at most 64/)]);
    const mismatch = loaded(parseSkillText('---\nname: other\ndescription: d\n---\nb', origin('folder')));
    expect([mismatch.name, mismatch.warnings[0]]).toEqual([
      'other',
      'the skill is named "other" but its folder is "folder"; loaded as "other"',
    ]);
    expect(loaded(parse('d', `description: ${'x'.repeat(1025)}`)).description).toHaveLength(1024);
    expect(loaded(parse('r', 'description: d\nactivation:\n  patterns: ["(x+)*y"]')).activation.patterns).toEqual([]);
    expect(loaded(parse('r', 'description: d\nactivation:\n  patterns: ["(unclosed"]')).warnings[0]).toMatch(
      /invalid_regex/,
    );
    expect(loaded(parse('r', 'description: d\nactivation:\n  max_context_tokens: -3')).warnings[0]).toMatch(
      /max_context_tokens/,
    );
    expect(loaded(parseSkillText(`---\nname: big\ndescription: d\n---\n${'x'.repeat(200_000)}`, origin('big'))).body).toHaveLength(200_000);
  });

  it('never evaluates JavaScript front matter, even when the language is announced after the fence', () => {
    const g = globalThis as Record<string, unknown>;
    delete g['__parserPwned'];
    const result = parseSkillText(
      '---javascript\n{ name: (globalThis.__parserPwned = 1, "p") }\n---\nb',
      origin('p'),
    );
    expect(result.ok).toBe(false);
    expect(g['__parserPwned']).toBeUndefined();
  });

  it('reads workflow parameters and all trigger spellings', () => {
    const result = parse(
      'wf',
      'description: d\nparameters:\n  target: {type: string, required: true}\n  count: {type: number, default: 2}\ntriggers:\n  - /Review\n  - {type: schedule, cron: "*/5 * * * *"}\n  - {event: push}\n  - manual',
    );
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    expect(result.skill.parameters).toEqual([
      { name: 'target', type: 'string', required: true },
      { name: 'count', type: 'number', required: false, default: 2 },
    ]);
    expect(result.skill.triggers).toEqual([
      { kind: 'command', command: '/review' },
      { kind: 'schedule', cron: '*/5 * * * *' },
      { kind: 'webhook', event: 'push' },
      { kind: 'manual' },
    ]);
    expect(result.skill.dialects).toEqual(['workflow']);
  });
});
