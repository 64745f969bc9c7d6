import { describe, expect, it } from 'vitest';
import { EVENT_NAMES, isEventName } from '../../../src/shared/contract/events';
import { EventBus } from '../../../src/main/eventBus';

describe('the event table (src/shared/contract/events.ts)', () => {
  it('lists every event once, and knows no other name: a stream event of another name is skipped', () => {
    expect(new Set(EVENT_NAMES).size).toBe(EVENT_NAMES.length);
    expect(EVENT_NAMES).toEqual(expect.arrayContaining(['sync.progress', 'sync.auto', 'job.progress', 'pending.due', 'data.changed']));
    for (const name of EVENT_NAMES) expect(isEventName(name)).toBe(true);
    for (const name of ['message', 'toString', '__proto__', 'constructor', 'data.changed ', 'DATA.CHANGED']) expect(isEventName(name)).toBe(false);
  });

  it("EventBus.on hands one event's payloads to its handler, and nothing after unsubscribing", () => {
    const bus = new EventBus();
    const seen: number[] = [];
    const off = bus.on('pending.due', (p) => seen.push(p.count));
    bus.emit('data.changed', { topics: ['pending'], reason: 'test' });
    bus.emit('pending.due', { count: 2 });
    off();
    bus.emit('pending.due', { count: 5 });
    expect(seen).toEqual([2]);
  });
});
