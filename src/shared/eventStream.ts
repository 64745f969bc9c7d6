/**
 * The web shell's event stream (Server-Sent Events), written by the shell and read by the renderer.
 * EventSource cannot send headers, and the web shell's session travels in a header only, so the
 * renderer reads the stream from a fetch() body and splits it here.
 */
export interface StreamedEvent {
  name: string;
  data: string;
}

/** One event as the web shell writes it: its name, and its payload as one line of JSON. */
export function formatStreamEvent(name: string, payload: unknown): string {
  return `event: ${name}\ndata: ${JSON.stringify(payload)}\n\n`;
}

/**
 * Splits the text received so far into complete events (each ends with a blank line) and the
 * unfinished rest to prepend to the next chunk. Comment lines (`: …`) and events without data are
 * skipped; several `data:` lines are joined with newlines, as the SSE format says.
 */
export function splitEventStream(text: string): { events: StreamedEvent[]; rest: string } {
  const normalized = text.replace(/\r\n?/g, '\n');
  const blocks = normalized.split('\n\n');
  const rest = blocks.pop() ?? '';
  const events: StreamedEvent[] = [];
  for (const block of blocks) {
    let name = 'message';
    const data: string[] = [];
    for (const line of block.split('\n')) {
      if (line === '' || line.startsWith(':')) continue;
      const colon = line.indexOf(':');
      const field = colon < 0 ? line : line.slice(0, colon);
      const value = colon < 0 ? '' : line.slice(colon + 1).replace(/^ /, '');
      if (field === 'event') name = value;
      else if (field === 'data') data.push(value);
    }
    if (data.length > 0) events.push({ name, data: data.join('\n') });
  }
  return { events, rest };
}
