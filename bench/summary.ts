/**
 * What `npm run bench` (no name: issue 26's rows) collects from each bench it runs: one row of the
 * summary table a bench hands back (scripts/bench.mjs prints them at the end), and the size the
 * run asked for. A bench run alone (`npm run bench -- NAME`) prints its own figures as before;
 * these rows then go nowhere.
 *
 * VENDESK_BENCH_SCALE (default 1) scales the issue's row counts for a quick check: 0.05 runs
 * 50,000 instead of 1,000,000. Targets stated as times scale with it; the printed row says so.
 */
import fs from 'node:fs';

export interface SummaryRow {
  /** Where people wait (the row). */
  row: string;
  measured: string;
  /** The yardstick measured in the same run ('—' when the issue names none). */
  yardstick: string;
  target: string;
  /** null: the row has no target to meet. */
  met: boolean | null;
}

/** Hands a row to the summary of `npm run bench` (a no-op when the bench runs alone). */
export function reportRow(row: SummaryRow): void {
  const file = process.env.VENDESK_BENCH_SUMMARY;
  if (file) fs.appendFileSync(file, `${JSON.stringify(row)}\n`);
}

/** The run's scale (VENDESK_BENCH_SCALE, default 1). */
export function benchScale(): number {
  const s = Number(process.env.VENDESK_BENCH_SCALE ?? 1);
  return Number.isFinite(s) && s > 0 ? s : 1;
}

/** `n` at the run's scale (at least `floor`). */
export function scaled(n: number, floor = 1000): number {
  return Math.max(floor, Math.round(n * benchScale()));
}
