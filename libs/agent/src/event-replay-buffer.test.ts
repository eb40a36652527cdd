import { describe, expect, it } from '@jest/globals';
import { EventReplayBuffer } from './event-replay-buffer.js';

describe('EventReplayBuffer', () => {
  it('replays exactly the events after the last id, once', () => {
    const buffer = new EventReplayBuffer<string>('e1');
    const ids = ['a', 'b', 'c', 'd'].map((event) => buffer.push(event).id);
    expect(ids).toEqual(['e1-1', 'e1-2', 'e1-3', 'e1-4']);
    expect(buffer.after('e1-2')!.map((entry) => entry.event)).toEqual(['c', 'd']);
    expect(buffer.after('e1-4')).toEqual([]);
    expect(buffer.after('e1-0')!.map((entry) => entry.event)).toEqual(['a', 'b', 'c', 'd']);
  });

  it('refuses ids of another epoch, from the future, malformed, or already dropped', () => {
    const buffer = new EventReplayBuffer<number>('boot-7', 3);
    for (let i = 1; i <= 5; i++) buffer.push(i);
    expect(buffer.after('boot-7-2')!.map((entry) => entry.event)).toEqual([3, 4, 5]);
    expect(buffer.after('boot-7-1')).toBeUndefined();
    expect(buffer.after('boot-8-4')).toBeUndefined();
    expect(buffer.after('boot-7-9')).toBeUndefined();
    expect(buffer.after('boot-7-x')).toBeUndefined();
    expect(buffer.after('nonsense')).toBeUndefined();
    expect(buffer.after('')).toBeUndefined();
  });
});
