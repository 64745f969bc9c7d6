/** Turning bytes into text on the hot paths of the readers (a million cells and more). */

type Latin1Slicing = Buffer & { latin1Slice?: (start: number, end: number) => string };

/**
 * `buf[start, end)` decoded as UTF-8; when the bytes are all ASCII, through Node's direct latin1
 * slice (the same text, without the UTF-8 decoder). The string is a copy: it keeps no chunk alive.
 */
export function utf8Text(buf: Buffer, start: number, end: number): string {
  for (let i = start; i < end; i++) if (buf[i] >= 0x80) return buf.toString('utf8', start, end);
  const b = buf as Latin1Slicing;
  return b.latin1Slice ? b.latin1Slice(start, end) : buf.toString('latin1', start, end);
}
