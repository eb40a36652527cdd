import { describe, expect, it } from '@jest/globals';
import { WriteEpoch } from './write-epoch.js';

describe('WriteEpoch', () => {
  it('moves for every reader with a write that may touch any table, and never for a read', () => {
    const epoch = new WriteEpoch();
    const before = [epoch.current(), epoch.current(['approval']), epoch.current(['audit_event'])];
    epoch.advanceFor('  select * from approval');
    expect([epoch.current(), epoch.current(['approval']), epoch.current(['audit_event'])]).toEqual(before);
    epoch.advanceFor('UPDATE approval SET status = 1');
    expect(epoch.current()).toBe(before[0]! + 1);
    expect(epoch.current(['approval'])).toBe(before[1]! + 1);
    expect(epoch.current(['audit_event'])).toBe(before[2]! + 1);
    epoch.advance();
    expect(epoch.current(['session_grant'])).toBe(before[1]! + 2);
  });

  it('moves a write into one table for the readers of that table and for readers of everything only', () => {
    const epoch = new WriteEpoch();
    const gate = ['session_grant', 'approval'];
    const [all, ofGate, ofAudit] = [epoch.current(), epoch.current(gate), epoch.current(['audit_event'])];
    epoch.advanceTable('audit_event');
    epoch.advanceTable('audit_event');
    expect(epoch.current(gate)).toBe(ofGate);
    expect(epoch.current(['audit_event'])).toBe(ofAudit + 2);
    expect(epoch.current()).toBe(all + 2);
    epoch.advanceTable('approval');
    expect(epoch.current(gate)).toBe(ofGate + 1);
    expect(epoch.current(['audit_event'])).toBe(ofAudit + 2);
  });

  it('never moves back: each count only grows, so a kept reading cannot match a later epoch by chance', () => {
    const epoch = new WriteEpoch();
    const seen = [epoch.current(['approval'])];
    for (const step of ['table', 'any', 'other', 'table', 'any'])
      if (step === 'table') epoch.advanceTable('approval');
      else if (step === 'other') epoch.advanceTable('audit_event');
      else epoch.advance();
    seen.push(epoch.current(['approval']));
    expect(seen[1]).toBe(seen[0]! + 4);
  });
});
