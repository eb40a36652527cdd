import { describe, expect, it } from '@jest/globals';
import { checkImports } from './component-compiler.js';

describe('checkImports', () => {
  it('allows only the host interface by default, at any version', () => {
    expect(() => checkImports(['talon:tool/host@0.1.0'], { allowedImports: [] })).not.toThrow();
    expect(() => checkImports([], { allowedImports: [] })).not.toThrow();
  });

  it('refuses WASI and anything else with a typed error naming them', () => {
    expect(() =>
      checkImports(['talon:tool/host@0.1.0', 'wasi:cli/environment@0.2.3', 'wasi:filesystem/types@0.2.3'], {
        allowedImports: [],
      }),
    ).toThrow(
      expect.objectContaining({
        code: 'POLICY_DENIED',
        details: { forbidden: ['wasi:cli/environment@0.2.3', 'wasi:filesystem/types@0.2.3'] },
      }),
    );
    expect(() => checkImports(['talon:tool/host-extra@0.1.0'], { allowedImports: [] })).toThrow(
      /talon:tool\/host-extra/,
    );
  });

  it('allows interfaces the policy lists', () => {
    expect(() =>
      checkImports(['wasi:random/random@0.2.0'], { allowedImports: ['wasi:random/random'] }),
    ).not.toThrow();
  });
});
