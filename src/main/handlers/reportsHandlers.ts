import path from 'node:path';
import type { reportsOperations } from '../../shared/contract/reports';
import { exported } from '../reports/reconcileWorkbook';
import { spendReport, writeSpendChart, writeSpendWorkbook } from '../reports/spendReport';
import { exportPath } from '../files';
import { ensureDaysRead } from '../transactions/readMissingDays';
import type { HandlersOf } from './handlerTypes';

export const reportsHandlers: HandlersOf<typeof reportsOperations> = {
  'reports.spend': async (input, app, call) => {
    // Never a figure silently short of days the mirror has not read: read them first, or refuse.
    const coverage = await ensureDaysRead(app, input, input.unread, { purpose: 'report', signal: call.signal });
    const report = spendReport(app.db, app.connection.profileId, input.from, input.to, coverage);
    const file = exportPath(app, `Spend ${input.from} to ${input.to}`, 'xlsx');
    const result = await writeSpendWorkbook(report, file);
    const chartFile = file.replace(/\.xlsx$/, ' chart.svg');
    const bytes = writeSpendChart(report, chartFile);
    return {
      ...exported(file, result),
      chart: { fileName: path.basename(chartFile), path: chartFile, bytes, rows: report.byDay.length },
      totals: report.total,
      byCostCentre: report.byCostCentreAndType,
      coverage,
    };
  },
};
