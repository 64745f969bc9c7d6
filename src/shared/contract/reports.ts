/**
 * Reports written from the mirror of the connection in use: the spend report (an Excel workbook
 * by day, type and network, with a chart image beside it). Money is integer kobo.
 */
import { z } from 'zod';
import type { SpendFigures } from './dashboard';
import { op } from './define';
import type { ExportedFile } from './files';
import { calendarDay } from './reconcile';

/** Successful and pending purchases of a spend report (what left the wallet; refunded ones apart): face value (the log's `amount`), wallet cost (its `transaction_cost`) and commission. */
export interface SpendReportTotals extends SpendFigures {
  commissionKobo: number;
}

export const reportsOperations = {
  'reports.spend': op(
    z.object({ from: calendarDay, to: calendarDay }).refine((v) => v.from <= v.to, { message: 'The start date is after the end date; swap them', path: ['to'] }),
    'Spend for a range (face value and wallet cost) by day, type and network as an Excel workbook, with a chart image beside it',
  ).returns<ExportedFile & { chart: ExportedFile | null; totals: SpendReportTotals }>(),
} as const;
