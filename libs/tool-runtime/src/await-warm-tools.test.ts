import { describe, expect, it } from '@jest/globals';
import { definition } from '../test/support/tool-definition.js';
import { awaitWarmTools } from './await-warm-tools.js';
import { CatalogWarmUp } from './catalog-warm-up.js';
import { ToolCatalog } from './tool-catalog.js';

const announce = (catalog: ToolCatalog, names: string[]) =>
  catalog.announce(
    {
      instanceId: 'r1',
      service: 'wasm-runner',
      domain: 'container',
      tools: names.map((name) => definition(name, 'builtin', 'container')),
      ttlMs: 3000,
    },
    Date.now(),
  );

function warming(): CatalogWarmUp {
  const warmUp = new CatalogWarmUp(5000);
  warmUp.begin(Date.now());
  return warmUp;
}

describe('awaitWarmTools', () => {
  it('while warming, resolves when the last named tool is announced', async () => {
    const catalog = new ToolCatalog();
    const started = Date.now();
    setTimeout(() => announce(catalog, ['read_file']), 20);
    setTimeout(() => announce(catalog, ['read_file', 'write_file']), 60);
    await awaitWarmTools(catalog, warming(), ['read_file', 'write_file'], undefined, 2000);
    expect(catalog.get('write_file')).toBeDefined();
    expect(Date.now() - started).toBeLessThan(1000);
  });

  it('gives up after its bound, and at once when the catalog is warm', async () => {
    const catalog = new ToolCatalog();
    const started = Date.now();
    await awaitWarmTools(catalog, warming(), ['missing'], undefined, 50);
    expect(Date.now() - started).toBeGreaterThanOrEqual(45);
    const warm = new CatalogWarmUp(5000);
    const again = Date.now();
    await awaitWarmTools(catalog, warm, ['missing'], undefined, 5000);
    expect(Date.now() - again).toBeLessThan(20);
  });

  it('stops waiting when its signal aborts', async () => {
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 20);
    const started = Date.now();
    await awaitWarmTools(new ToolCatalog(), warming(), ['missing'], controller.signal, 5000);
    expect(Date.now() - started).toBeLessThan(1000);
  });
});
