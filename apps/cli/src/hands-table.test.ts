import { describe, expect, it } from '@jest/globals';
import type { HandSummary } from '@talon/contracts';
import { REMINDER_HAND } from '@talon/hands';
import { formatHand, formatHandsStatus, formatHandsTable } from './hands-table.js';

const collector: HandSummary = {
  ...REMINDER_HAND,
  id: 'collector',
  name: 'Collector',
  dialect: 'openfang',
  system: false,
  description: 'Fetches pages and stores them.',
  tools: ['web_fetch', 'memory_write'],
  requires: [{ kind: 'binary', name: 'curl', optional: false }],
  settings: [
    {
      key: 'extract',
      label: 'What to keep',
      kind: 'select',
      options: [{ value: 'summary', label: 'Summary' }],
      default: 'summary',
    },
  ],
  metrics: [
    { label: 'Pages collected', memoryKey: 'hands/collector/stats/pages_collected', format: 'number' },
  ],
  gating: { eligible: false, reasons: ['binary "curl" is not on PATH'] },
};

describe('hands table', () => {
  it('shows one row per hand, why a hand is not ready, and the refused files', () => {
    const text = formatHandsTable({
      hands: [{ ...REMINDER_HAND, gating: { eligible: true, reasons: [] } }, collector],
      rejected: [{ reason: 'bad_toml', message: 'the TOML does not parse', path: '/hands/broken.HAND.toml' }],
    });
    const lines = text.split('\n');
    expect(lines[0]).toMatch(/^ID\s+DIALECT\s+VERSION\s+READY\s+APPROVAL\s+TOOLS\s+DESCRIPTION$/);
    expect(lines[1]).toMatch(/^_reminder\s+system\s+1\.0\.0\s+yes\s+-\s+-\s+Delivers a reminder/);
    expect(lines[2]).toMatch(
      /^collector\s+openfang\s+1\.0\.0\s+no\s+-\s+web_fetch,memory_write\s+Fetches pages/,
    );
    expect(text).toContain('collector is not ready: binary "curl" is not on PATH');
    expect(text).toContain('/hands/broken.HAND.toml: bad_toml — the TOML does not parse');
  });

  it('shows one hand with settings, requirements and metrics', () => {
    const text = formatHand(collector);
    expect(text).toContain('ready:     no (binary "curl" is not on PATH)');
    expect(text).toContain('setting:   extract (select) [summary] = "summary" — What to keep');
    expect(text).toContain(
      'metric:    Pages collected ← memory hands/collector/stats/pages_collected (number)',
    );
  });

  it('sums hands, instances and waiting runs up for talon status', () => {
    const line = formatHandsStatus(
      {
        hands: [{ ...collector, id: 'digest', gating: { eligible: true, reasons: [] } }, collector],
        rejected: [{ reason: 'bad_toml', message: 'x', path: '/h/broken.HAND.toml' }],
      },
      {
        instances: [
          {
            name: 'ward',
            hand: 'collector',
            state: 'active',
            settings: {},
            createdBy: 'cli',
            createdAt: '',
            updatedAt: '',
            metrics: [],
          },
          {
            name: 'night',
            hand: 'collector',
            state: 'paused',
            settings: {},
            createdBy: 'cli',
            createdAt: '',
            updatedAt: '',
            metrics: [],
          },
        ],
      },
      2,
    );
    expect(line).toBe(
      'Hands: 2 (1 ready, 1 file(s) refused); instances: 1 active, 1 paused; runs awaiting approval: 2',
    );
  });
});
