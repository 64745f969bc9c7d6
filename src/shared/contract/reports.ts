/**
 * Reports written from the mirror of the connection in use: the spend report (an Excel workbook
 * by day, type and network, with a chart image beside it). Money is integer kobo.
 */
import { z } from 'zod';
import type { SpendFigures } from './dashboard';
import { op } from './define';
import type { ExportedFile } from './files';
import { calendarDay } from './reconcile';
import { unreadDaysSchema, type MirrorCoverage } from './logs';

/** Spend of one cost centre and type (successful and pending purchases), in kobo. */
export interface CostCentreSpend {
  costCentre: string;
  type: string;
  purchases: number;
  faceKobo: number;
  costKobo: number;
  commissionKobo: number;
}

/** Successful and pending purchases of a spend report (what left the wallet; refunded ones apart): face value (the log's `amount`), wallet cost (its `transaction_cost`) and commission. */
export interface SpendReportTotals extends SpendFigures {
  commissionKobo: number;
}

export const reportsOperations = {
  'reports.spend': op(
    z
      .object({
        from: calendarDay,
        to: calendarDay,
        /** Days of the range the mirror has not read: read them first (default), or refuse (`days_unread`). */
        unread: unreadDaysSchema.default('read'),
      })
      .refine((v) => v.from <= v.to, { message: 'The start date is after the end date; swap them', path: ['to'] }),
    'Spend for a range (face value and wallet cost) by day, type, network and cost centre as an Excel workbook, with a chart image beside it; days the mirror has not read are read first, or refused',
  ).returns<ExportedFile & { chart: ExportedFile | null; totals: SpendReportTotals; byCostCentre: CostCentreSpend[]; coverage: MirrorCoverage }>(),
} as const;
