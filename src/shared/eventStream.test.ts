import { describe, expect, it } from 'vitest';
import { formatStreamEvent, splitEventStream } from './eventStream';

describe('splitEventStream (the browser reads the web shell events from a fetch body)', () => {
  it('reads named events and skips the comment the stream opens with', () => {
    const { events, rest } = splitEventStream(': connected\n\nevent: pending.due\ndata: {"count":3}\n\nevent: data.changed\ndata: {"topics":["jobs"]}\n\n');
    expect(events).toEqual([
      { name: 'pending.due', data: '{"count":3}' },
      { name: 'data.changed', data: '{"topics":["jobs"]}' },
    ]);
    expect(rest).toBe('');
  });

  it('reads back what the web shell writes', () => {
    const payload = { topics: ['jobs'], note: 'line one\nline two' };
    expect(splitEventStream(formatStreamEvent('data.changed', payload))).toEqual({ events: [{ name: 'data.changed', data: JSON.stringify(payload) }], rest: '' });
  });

  it('keeps an event cut between two chunks until its end arrives, and loses nothing', () => {
    const text = 'event: job.progress\ndata: {"done":1}\n\nevent: job.progress\ndata: {"done":2}\n\n';
    const received: string[] = [];
    let rest = '';
    for (let cut = 0; cut < text.length; cut += 7) {
      const split = splitEventStream(rest + text.slice(cut, cut + 7));
      rest = split.rest;
      received.push(...split.events.map((e) => e.data));
    }
    expect(received).toEqual(['{"done":1}', '{"done":2}']);
    expect(rest).toBe('');
  });

  it('joins several data lines, accepts CRLF line ends, and names an unnamed event "message"', () => {
    const { events } = splitEventStream('data: a\r\ndata: b\r\n\r\nevent:x\ndata:1\n\n');
    expect(events).toEqual([
      { name: 'message', data: 'a\nb' },
      { name: 'x', data: '1' },
    ]);
  });
});
