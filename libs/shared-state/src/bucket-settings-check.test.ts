import { describe, expect, it } from '@jest/globals';
import { bucketSettingsDifferences } from './bucket-settings-check.js';

const usable = { history: 5, storage: 'file', ttlMs: 0, subjects: ['$KV.b.>'] };

describe('bucketSettingsDifferences', () => {
  it('accepts the settings Talon creates, and a longer history', () => {
    expect(bucketSettingsDifferences(usable, '$KV.b.>')).toEqual([]);
    expect(bucketSettingsDifferences({ ...usable, history: 64 }, '$KV.b.>')).toEqual([]);
    expect(bucketSettingsDifferences({ ...usable, history: undefined }, '$KV.b.>')).toEqual([]);
  });

  it('names every setting that would lose or hide state', () => {
    const differences = bucketSettingsDifferences(
      { history: 0, storage: 'memory', ttlMs: 60_000, subjects: ['other.>'] },
      '$KV.b.>',
    );
    expect(differences).toHaveLength(4);
    expect(differences.join('\n')).toMatch(/history is 0/);
    expect(differences.join('\n')).toMatch(/storage is memory, needs file/);
    expect(differences.join('\n')).toMatch(/expire after 60000 ms/);
    expect(differences.join('\n')).toMatch(/subjects are other\.>, needs \$KV\.b\.>/);
  });
});
