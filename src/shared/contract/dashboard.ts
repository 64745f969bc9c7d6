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

/** Paid sends of one kind: how many, the messages they carried (one per recipient), and what they cost the wallet. */
export interface MessagingPart {
  sends: number;
  messages: number;
  costKobo: number;
}

/**
 * vendesk's own messaging over a period, from its record of every paid send: what the service said
 * it charged, else the quoted cost (`asQuoted` of them). The service lists no messaging charges, so
 * messages sent outside vendesk are not in it.
 */
export interface MessagingSpend extends MessagingPart {
  /** SMS, with their e-mail copies. */
  sms: MessagingPart;
  /** One-time codes. */
  codes: MessagingPart;
  /** Sends counted at the quoted cost: the service's answer did not say what it charged. */
  asQuoted: number;
  /** Sends whose answer was lost: they may or may not have been charged, and are not counted above. */
  uncertain: { sends: number; quotedKobo: number };
}

/**
 * Spend over a period — what left the wallet: the purchases' face value (the log's `amount`) and
 * wallet cost (its `transaction_cost`), and vendesk's messaging; `walletKobo` is both together.
 */
export interface SpendFigures {
  purchases: number;
  faceKobo: number;
  /** The purchases' wallet cost. */
  costKobo: number;
  /** Refunded (FAILED) purchases of the period, never in the figures above: `costKobo` is what the wallet got back. */
  refunded?: { count: number; costKobo: number };
  /** SMS, e-mail copies and one-time codes vendesk sent: on their own line, and in `walletKobo`. */
  messaging: MessagingSpend;
  /** What left the wallet: the purchases' wallet cost and the messaging. */
  walletKobo: number;
}

/** One cost centre's part of a period's purchases: how many, face value and wallet cost. */
export interface CostCentreShare {
  costCentre: string;
  purchases: number;
  faceKobo: number;
  costKobo: number;
}

export interface DashboardSummary {
  balance: { balanceKobo: number; accountName: string; readAt: string } | null;
  balanceError: { message: string; hint?: string } | null;
  /** Successful and pending purchases (failed ones were refunded, counted apart) and vendesk's messaging, by Lagos day (on the service's clock), week (from Monday), month and the last 30 days. */
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

/**
 * This month's purchases (the Spent this month card's) by the cost centre they are charged to
 * (docs/cost-centres.md), Unassigned last: they add up to that card's purchases. Read apart from
 * the summary: it joins every entry of the month to its cost centre (seconds at millions of
 * entries), while the summary's figures come from totals kept per day.
 */
export interface DashboardCostCentres {
  /** The month's first Lagos day (`YYYY-MM-DD`), on the service's clock, as the summary's month. */
  from: string;
  shares: CostCentreShare[];
}

export const dashboardOperations = {
  'dashboard.summary': op(z.object({}), 'Wallet, spend, daily spend chart, pending count and last sync').returns<DashboardSummary>(),
  'dashboard.costCentres': op(z.object({}), "This month's purchases by cost centre").returns<DashboardCostCentres>(),
} as const;
