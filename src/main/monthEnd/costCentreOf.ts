/**
 * The one place month-end reads a log entry's cost centre: the view every cost centre comes from
 * (`log_cost_centres`, src/main/costCentres/logCostCentres.ts). Every figure of a close (the close
 * pack, the journal, the states a close keeps, an adjustment for a cost centre changed after close)
 * takes it from here, as SQL over `log_entries`, so a month of a million entries is summed in the
 * database.
 */
import { LOG_COST_CENTRES, UNASSIGNED } from '../costCentres/logCostCentres';

export { UNASSIGNED as UNASSIGNED_COST_CENTRE };

/** A join to add after `FROM log_entries <alias>` and the expression giving that entry's cost centre. */
export function costCentreSql(alias: string): { join: string; expr: string } {
  return { join: `JOIN ${LOG_COST_CENTRES} ${alias}_cc ON ${alias}_cc.entry_rowid = ${alias}.rowid`, expr: `${alias}_cc.cost_centre` };
}
