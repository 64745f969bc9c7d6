/**
 * The arithmetic of the Transactions table's scaled scroll. Browsers cap an element's height near
 * 33 million pixels, so a list of 1,000,000 rows at 36 px cannot be a spacer of its true height.
 * The spacer is capped at MAX_SCROLL_PX and the scroll position is mapped onto the row range
 * proportionally, so the bottom of the scrollbar is the last row, whatever the count.
 */
export const ROW_HEIGHT = 36;
export const MAX_SCROLL_PX = 8_000_000;
export const BLOCK = 100;

export interface Viewport {
  /** Height of the spacer element. */
  spacerPx: number;
  /** Index of the first (partly) visible row, as a fraction. */
  firstRow: number;
}

export function spacerHeight(count: number): number {
  return Math.min(count * ROW_HEIGHT, MAX_SCROLL_PX);
}

/** Which row is at the top for a scroll position; exact 1:1 when the list fits, scaled above. */
export function firstRowAt(scrollTop: number, count: number, viewportPx: number): number {
  const spacer = spacerHeight(count);
  const visible = viewportPx / ROW_HEIGHT;
  const maxFirst = Math.max(0, count - visible);
  const maxScroll = Math.max(1, spacer - viewportPx);
  if (count * ROW_HEIGHT <= MAX_SCROLL_PX) return Math.min(maxFirst, scrollTop / ROW_HEIGHT);
  return Math.min(maxFirst, (Math.min(scrollTop, maxScroll) / maxScroll) * maxFirst);
}

/** The scroll position that puts `row` at the top (inverse of firstRowAt). */
export function scrollTopFor(row: number, count: number, viewportPx: number): number {
  const spacer = spacerHeight(count);
  const maxFirst = Math.max(0, count - viewportPx / ROW_HEIGHT);
  if (count * ROW_HEIGHT <= MAX_SCROLL_PX) return row * ROW_HEIGHT;
  return (Math.min(row, maxFirst) / Math.max(1, maxFirst)) * Math.max(1, spacer - viewportPx);
}

/** Blocks of BLOCK rows needed to show rows [first, first + n). */
export function blocksFor(first: number, n: number, count: number): number[] {
  const from = Math.max(0, Math.floor(first / BLOCK));
  const to = Math.min(Math.ceil(count / BLOCK) - 1, Math.floor((first + n) / BLOCK));
  const out: number[] = [];
  for (let b = from; b <= to; b++) out.push(b);
  return out;
}
