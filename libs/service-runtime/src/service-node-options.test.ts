import { describe, expect, it } from '@jest/globals';
import { execFileSync } from 'node:child_process';
import { serviceNodeOptions } from './service-node-options.js';

/** The young generation's size in MiB in a Node process started with these `NODE_OPTIONS`. */
function newSpaceMiB(nodeOptions: string | undefined): number {
  const script =
    "const v8 = require('node:v8'); let keep = []; for (let i = 0; i < 3e6; i++) { keep.push({ i, s: 'x' + i }); if (keep.length > 5e4) keep = []; }" +
    "process.stdout.write(String(v8.getHeapSpaceStatistics().find((s) => s.space_name === 'new_space').space_size / 1048576));";
  const env = { PATH: process.env.PATH ?? '', ...(nodeOptions ? { NODE_OPTIONS: nodeOptions } : {}) };
  return Number(execFileSync(process.execPath, ['-e', script], { env, encoding: 'utf8' }));
}

describe('serviceNodeOptions', () => {
  it('gives the orchestrator a larger young generation, and the other services nothing', () => {
    expect(serviceNodeOptions('orchestrator')).toBe('--max-semi-space-size=64');
    for (const service of ['tool-worker', 'wasm-runner', 'skill-service'])
      expect(serviceNodeOptions(service)).toBeUndefined();
  });

  it("puts the environment's own options last, so they win", () => {
    expect(serviceNodeOptions('orchestrator', ' --max-semi-space-size=8 ')).toBe(
      '--max-semi-space-size=64 --max-semi-space-size=8',
    );
    expect(serviceNodeOptions('tool-worker', '--enable-source-maps')).toBe('--enable-source-maps');
    expect(serviceNodeOptions('tool-worker', '  ')).toBeUndefined();
  });

  it('takes effect in a real process: its young generation grows past the default, unless overridden', () => {
    const byDefault = newSpaceMiB(undefined);
    expect(newSpaceMiB(serviceNodeOptions('orchestrator'))).toBeGreaterThan(byDefault);
    expect(newSpaceMiB(serviceNodeOptions('orchestrator', '--max-semi-space-size=8'))).toBeLessThan(
      newSpaceMiB(serviceNodeOptions('orchestrator')),
    );
  });
});
