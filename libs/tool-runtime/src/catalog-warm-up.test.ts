import { describe, expect, it } from '@jest/globals';
import { CatalogWarmUp } from './catalog-warm-up.js';

describe('CatalogWarmUp', () => {
  it('is cold until begun, warming for its window, then warm', () => {
    const warmUp = new CatalogWarmUp(3000);
    expect(warmUp.isWarming(0)).toBe(false);
    warmUp.begin(1000);
    expect(warmUp.isWarming(3999)).toBe(true);
    expect(warmUp.isWarming(4000)).toBe(false);
  });

  it('a second begin extends the window and never shortens it', () => {
    const warmUp = new CatalogWarmUp(3000);
    warmUp.begin(1000);
    warmUp.begin(2000);
    expect(warmUp.endsAt).toBe(5000);
    warmUp.begin(0);
    expect(warmUp.endsAt).toBe(5000);
  });
});
