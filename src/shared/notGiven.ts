/**
 * How vendesk writes a figure or a field the service's answer did not give: never as 0 or an
 * empty cell, always as "not given by the service" (the window, the CLI and exports share it).
 */
export const NOT_GIVEN = 'not given by the service';

/** A count in en-NG digits, or {@link NOT_GIVEN}. */
export function countText(n: number | null): string {
  return n === null ? NOT_GIVEN : n.toLocaleString('en-NG');
}
