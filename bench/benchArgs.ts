/** What every bench reads of its command line and how it sums up repeated measurements. */

/** The number after `--name`, NaN when there is none. */
function argValue(name: string): number {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? Number(process.argv[i + 1]) : NaN;
}

/** `--name N` as a positive number, else `fallback`. */
export function numberArg(name: string, fallback: number): number {
  const v = argValue(name);
  return Number.isFinite(v) && v > 0 ? v : fallback;
}

/** `--name N` as a count that may be 0 (`--runs 0`: none), else `fallback`. */
export function countArg(name: string, fallback: number): number {
  const v = argValue(name);
  return Number.isInteger(v) && v >= 0 ? v : fallback;
}

/** The middle value (the mean of the two middle ones for an even count). */
export function median(xs: readonly number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
}
