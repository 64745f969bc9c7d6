/**
 * Pending purchases and the requery loop: the list, the counts the dashboard shows, checking
 * now, checking everything due, and resolving by hand with a note.
 */
import { z } from 'zod';
import { op } from './define';
import type { DataTopic } from './events';
import type { PurchaseView } from './purchases';

/** What support asks for when the service stops answering status checks. */
export interface SupportDetails {
  reference: string | null;
  purchasedAt: string;
  amountKobo: number;
  /** "Meter 45012345678 (IKEDC, PREPAID)" or "Smartcard 7012345678 (DSTV, dstv7)". */
  account: string;
  phone: string;
  attempts: number;
  /** The same, as text ready to paste into an email to support. */
  text: string;
}

export interface PendingItemView {
  purchase: PurchaseView;
  /** The time the next automatic requery is due (null when vendesk no longer requeries it). */
  dueAt: string | null;
  /** Seconds until due on the service clock (0 when due now). */
  dueInSeconds: number | null;
  due: boolean;
  /**
   * From when the service answers a requery of it ("Requery now" asks at once from then; pressed
   * earlier, vendesk asks at that moment): 2 min 1 s after the purchase, or later when the service
   * asked to wait. Null when there is nothing to ask (settled, needs support); for an uncertain
   * purchase (looked for in the log) it is now.
   */
  requeryAllowedAt: string | null;
  /** Seconds until then on the service clock (0: it may be asked now). */
  requeryAllowedInSeconds: number | null;
  support: SupportDetails | null;
}

export interface PendingCounts {
  /** Purchases without a final answer: pending, uncertain and those waiting for support. */
  count: number;
  due: number;
  needsSupport: number;
  uncertain: number;
}

export interface RequeryRunSummary {
  checked: number;
  success: number;
  failed: number;
  stillPending: number;
  needsSupport: number;
  notFound: number;
  /** Too early (425) or the provider could not be reached (502): rescheduled. */
  rescheduled: number;
  items: PendingItemView[];
}

/**
 * What a requery changes: the purchase (Pending page, receipts) and, when its state moved, the
 * log entries mirrored by its reference (Dashboard, Transactions). The requery loop, which is
 * background work, says the same through `app.invalidate`.
 */
export const REQUERY_CHANGES = ['pending', 'purchases', 'mirror'] as const satisfies readonly DataTopic[];

export const pendingOperations = {
  'pending.list': op(z.object({ includeSettled: z.boolean().default(false) }), 'Purchases waiting for a final answer (and, when asked, those settled in the last 7 days)').returns<
    PendingItemView[]
  >(),
  'pending.count': op(z.object({}), 'How many purchases wait for a final answer, and how many are due').returns<PendingCounts>(),
  'pending.requeryNow': op(
    z.object({ id: z.string().min(1) }),
    "Checks one pending purchase with the service now, whatever vendesk's own schedule says; before the service answers (2 min 1 s after the purchase) nothing is asked, and vendesk asks at that moment (`requeryAllowedAt`)",
    { invalidates: REQUERY_CHANGES },
  ).returns<PendingItemView>(),
  'pending.requeryDue': op(
    z.object({ all: z.boolean().default(false) }),
    'Checks every pending purchase that is due (or, with `all`, every one waiting; one the service does not answer yet is not asked, and is counted as rescheduled)',
    { invalidates: REQUERY_CHANGES },
  ).returns<RequeryRunSummary>(),
  'pending.resolve': op(
    z.object({
      id: z.string().min(1),
      outcome: z.enum(['SUCCESS', 'FAILED'], { message: 'Say whether the purchase succeeded or failed' }),
      note: z.string().trim().min(3, 'Write a short note saying how you know (e.g. "support ticket 1234 confirmed the token")').max(1000),
      token: z.string().trim().max(64).optional(),
    }),
    'Resolves a pending, uncertain or support-bound purchase by hand, with a note',
    { invalidates: ['pending', 'purchases'] },
  ).returns<PendingItemView>(),
} as const;
