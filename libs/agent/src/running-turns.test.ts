import { describe, expect, it } from '@jest/globals';
import { RunningTurns } from './running-turns.js';

describe('RunningTurns', () => {
  it('cancels the running turn of a session and only that one', () => {
    const turns = new RunningTurns();
    const a = turns.begin('a');
    const b = turns.begin('b');
    expect(turns.cancel('a')).toBe(true);
    expect(a.signal.aborted).toBe(true);
    expect(b.signal.aborted).toBe(false);
  });

  it('ignores a cancel of a session with no running turn, or one that finished', () => {
    const turns = new RunningTurns();
    expect(turns.cancel('none')).toBe(false);
    const done = turns.begin('a');
    done.end();
    expect(turns.isRunning('a')).toBe(false);
    expect(turns.cancel('a')).toBe(false);
    expect(done.signal.aborted).toBe(false);
  });

  it('follows the parent signal too', () => {
    const turns = new RunningTurns();
    const parent = new AbortController();
    const turn = turns.begin('a', parent.signal);
    parent.abort();
    expect(turn.signal.aborted).toBe(true);
  });
});
