/**
 * Columns of numbers kept in typed arrays (the log's in-process indexes and the vendor export
 * reader hold millions of values column by column, not as objects), and growing one.
 */
export type NumberColumn = Float64Array | Int32Array | Uint32Array | Uint8Array;

/** A copy of `column` with room for `capacity` values; the values past the old ones are 0. */
export function grownColumn<T extends NumberColumn>(column: T, capacity: number): T {
  const next = new (column.constructor as new (length: number) => T)(capacity);
  next.set(column);
  return next;
}
