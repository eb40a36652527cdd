import { describe, expect, it } from '@jest/globals';
import { foldText } from './cjk-text.js';
import { guardPattern, type GuardedPattern } from './regex-guard.js';
import { classifyTerm, prepareMessage, SkillMatchIndex } from './skill-match-index.js';

const pattern = (source: string): GuardedPattern => {
  const result = guardPattern(source);
  if (!result.ok) throw new Error(result.problem.message);
  return result.pattern;
};

function hits(index: SkillMatchIndex, message: string) {
  const prepared = prepareMessage(foldText(message));
  const terms: string[] = [];
  const patterns: string[] = [];
  index.forEachTermHit(prepared, (posting) => terms.push(`${posting.skill}:${posting.kind}:${posting.term}`));
  index.forEachPatternHit(prepared, (skill, source) => patterns.push(`${skill}:${source}`));
  return { terms: terms.sort(), patterns: patterns.sort() };
}

describe('SkillMatchIndex', () => {
  const index = new SkillMatchIndex([
    {
      keywords: ['deploy', 'c++', 'ci/cd', 'node.js'],
      excludeKeywords: ['dry run'],
      tags: ['ops'],
      patterns: [pattern('deploy\\s+to\\s+prod')],
    },
    {
      keywords: ['部署', 'k8s部署'],
      excludeKeywords: [],
      tags: ['发布'],
      patterns: [pattern('部署到生产'), pattern('[a-z]{4}-\\d{3}')],
    },
  ]);

  it('finds whole words and their inflections, never words inside words, and punctuated terms literally', () => {
    expect(hits(index, 'Redeploy with C++ via CI/CD on node.js, ops!').terms).toEqual([
      '0:keyword:c++',
      '0:keyword:ci/cd',
      '0:keyword:node.js',
      '0:tag:ops',
    ]);
    expect(hits(index, 'deployed twice, still deploying').terms).toEqual(['0:keyword:deploy']);
    expect(hits(index, 'a dry runs check').terms).toEqual(['0:exclude:dry run']);
  });

  it('treats CJK characters as word boundaries for Latin terms and matches CJK terms anywhere', () => {
    expect(hits(index, 'deploy部署k8s部署发布').terms).toEqual([
      '0:keyword:deploy',
      '1:keyword:k8s部署',
      '1:keyword:部署',
      '1:tag:发布',
    ]);
  });

  it('runs a pattern only when its literal is present, and literal-less patterns always', () => {
    expect(hits(index, 'please DEPLOY to   prod').patterns).toEqual(['0:deploy\\s+to\\s+prod']);
    expect(hits(index, 'deploy later').patterns).toEqual([]);
    expect(hits(index, '马上部署到生产环境，工单 abcd-123').patterns).toEqual([
      '1:[a-z]{4}-\\d{3}',
      '1:部署到生产',
    ]);
    expect(index.unfilteredPatternCount).toBe(1);
  });

  it('classifies occurrences', () => {
    expect(classifyTerm('the dry run', 'dry run')).toBe('exact');
    expect(classifyTerm('thedry runs', 'dry run')).toBe('substring');
    expect(classifyTerm('nothing', 'dry run')).toBeUndefined();
  });
});
