import { describe, expect, it } from '@jest/globals';
import { SessionEventLog } from './session-event-log.js';

describe('SessionEventLog', () => {
  it('replays the events after an id, per session, within its bounds', () => {
    const log = new SessionEventLog({ eventsPerSession: 3, sessions: 2 });
    for (let n = 1; n <= 4; n++) log.append({ sessionId: 'a', eventId: `a${n}` });
    log.append({ sessionId: 'b', eventId: 'b1' });
    expect(log.after('a', 'a2').map((event) => event.eventId)).toEqual(['a3', 'a4']);
    expect(log.after('a', 'a1')).toEqual([]); // fell out: the session keeps 3
    expect(log.after('b', 'b1')).toEqual([]);
    log.append({ sessionId: 'c', eventId: 'c1' }); // a is now the least recent session
    log.append({ sessionId: 'c', eventId: 'c2' });
    expect(log.after('a', 'a3')).toEqual([]);
    expect(log.after('c', 'c1').map((event) => event.eventId)).toEqual(['c2']);
  });
});
