/**
 * The Dashboard: the wallet, spend today, this week, this month and the last 30 days, the daily
 * spend chart, the pending count and the last sync, from the mirror of the connection in use.
 * Money is integer kobo.
 */
import { z } from 'zod';
import { op } from './define';
import type { MirrorCoverage, SyncFailure } from './logs';

export interface SpendPoint {
  /** `YYYY-MM-DD`, a Lagos day. */
  day: string;
  /** Face value in kobo (the log's `amount`) per series key (a type such as AIRTIME, or a network such as MTN). */
  values: Record<string, number>;
  /** Wallet cost in kobo (the log's `transaction_cost`, what the wallet was charged) per series key. */
  costs: Record<string, number>;
}

/** Spend over a period: face value (the log's `amount`) and wallet cost (its `transaction_cost`). */
export interface SpendFigures {
  purchases: number;
  faceKobo: number;
  costKobo: number;
  /** Refunded (FAILED) purchases of the period, never in the figures above: `costKobo` is what the wallet got back. */
  refunded?: { count: number; costKobo: number };
}

export interface DashboardSummary {
  balance: { balanceKobo: number; accountName: string; readAt: string } | null;
  balanceError: { message: string; hint?: string } | null;
  /** Successful and pending purchases (failed ones were refunded, counted apart), by Lagos day, week (from Monday), month and the last 30 days. */
  spend: { today: SpendFigures; week: SpendFigures; month: SpendFigures; last30Days: SpendFigures };
  /** Today's Lagos day (`YYYY-MM-DD`), the last day of the chart. */
  today: string;
  dailyByType: SpendPoint[];
  dailyByNetwork: SpendPoint[];
  typeKeys: string[];
  networkKeys: string[];
  /** Purchases waiting for their final answer: electricity and cable (the Pending page) and airtime and data (`pendingAirtimeData`). */
  pendingCount: number;
  /** Of those, airtime and data (one number or a spreadsheet's rows), followed on their receipt or job. */
  pendingAirtimeData: number;
  pendingSource: 'purchases' | 'mirror';
  lastSyncAt: string | null;
  /** The last sync failed after `lastSyncAt`: the figures are as read up to then. */
  lastSyncFailure: SyncFailure | null;
  syncing: boolean;
  entries: number;
  /** What the mirror holds of the Dashboard's days (the month's and the chart's 30, to today): a card over missing days says so. */
  coverage: MirrorCoverage;
}

export const dashboardOperations = {
  'dashboard.summary': op(z.object({}), 'Wallet, spend, daily spend chart, pending count and last sync').returns<DashboardSummary>(),
} as const;
