/**
 * Electricity and cable rows of a bulk job are bought one by one through the purchases module
 * (`buyElectricity` / `buyCable` with source `bulk`): the meter or smartcard is validated and the
 * purchase is written in state `sending` (committed) before its request leaves, and the pending
 * and requery loop chases it afterwards. The job item only links to that purchase and mirrors
 * its state, so a purchase is settled in one place (answer, requery, log, Pending page).
 */
import { PURCHASE_CHANGES } from '../../shared/contract/events';
import type { VendTypeInput } from '../../shared/contract/purchases';
import { AppError } from '../../shared/appError';
import type { App, AppPart, Session } from '../appContext';
import { rowSentence, type ValidationResult } from '../imports';
import { belowMeterMinimum, buyCable, buyElectricity, findPurchaseRow, settleFromLog, validateMeter, validateSmartcard } from '../purchases';
import { stateMeaning } from '../stateMeaning';
import type { ItemState, VendingJobKind } from './jobStates';
import type { ItemRow, PurchaseStateFields } from './jobRows';

export interface VendingBuyer {
  /**
   * Buys the item; resolves with the id of its purchase. `written` is called with that id in the
   * transaction that writes the purchase, before its request leaves. Throws when it was refused
   * before a purchase was written.
   */
  buy(kind: VendingJobKind, item: ItemRow, written: (purchaseId: string) => void): Promise<string>;
  /** A purchase left `sending` or `uncertain` (vendesk stopped, no answer): settled by the purchases module from the log. */
  settle(purchaseId: string): Promise<void>;
}

/** The buyer of a job's electricity and cable rows, on the session of its run. */
export function createVendingBuyer(app: App, session: Session): VendingBuyer {
  return {
    async buy(kind, item, written) {
      const row =
        kind === 'electricity'
          ? await buyElectricity(
              app,
              session,
              { disco: item.network, meter: item.account ?? '', vendType: (item.vend_type ?? 'PREPAID') as VendTypeInput, amountKobo: item.amount_kobo, phone: item.phone },
              { source: 'bulk', written },
            )
          : await buyCable(app, session, { provider: item.network, smartcard: item.account ?? '', bouquetCode: item.product_code, phone: item.phone }, { source: 'bulk', written });
      // A job's purchase is background work: no operation declares it, so the job says it.
      app.invalidate(PURCHASE_CHANGES, 'bulk job bought an item');
      return row.id;
    },
    async settle(purchaseId) {
      const row = findPurchaseRow(app, session.connection, purchaseId);
      if (!row || (row.state !== 'sending' && row.state !== 'uncertain')) return;
      try {
        await settleFromLog(app, session, purchaseId);
        app.invalidate(['purchases', 'pending', 'mirror'], 'bulk job settled an item from the log');
      } catch {
        // The log could not be read now: the purchase stays uncertain and the requery loop tries again.
      }
    },
  };
}

/** Files up to this many valid rows have each meter or smartcard checked with the service while preparing. */
export const CHECK_ACCOUNTS_UP_TO = 300;
const CHECK_CONCURRENCY = 4;

/**
 * Checks each valid row's meter (with its disco and type, and the meter's own minimum) or
 * smartcard with the service before the preview, so a POSTPAID meter written as PREPAID, say,
 * is shown with the rows that will not be bought instead of being refused while buying. Rows the
 * service refuses move to the invalid rows; when the service cannot be asked now, the row stays
 * valid and is checked again just before it is bought. Larger files are checked while buying.
 * Returns a note for the preview when some rows could not be checked.
 */
/** What checking the rows' meters or smartcards found: a note when some could not be checked, and the name the service gave for each checked row. */
export interface AccountsCheck {
  note: string | null;
  names: Map<number, string>;
}

export async function checkAccountsWithService(app: AppPart<'db'>, session: Session, kind: 'electricity' | 'cable', result: ValidationResult): Promise<AccountsCheck> {
  const names = new Map<number, string>();
  if (result.valid.length === 0 || result.valid.length > CHECK_ACCOUNTS_UP_TO) return { note: null, names };
  const refused = new Map<number, { field: 'meter' | 'smartcard' | 'amount'; message: string }>();
  let unchecked = 0;
  let next = 0;
  const worker = async () => {
    while (next < result.valid.length) {
      const row = result.valid[next++];
      try {
        if (kind === 'electricity') {
          const { validation } = await validateMeter(app, session, { disco: row.disco ?? '', meter: row.meter ?? '', vendType: (row.vendType ?? 'PREPAID') as VendTypeInput });
          if (validation.name.trim()) names.set(row.row, validation.name.trim());
          const below = belowMeterMinimum(row.meter ?? '', validation, row.amountKobo);
          if (below) refused.set(row.row, { field: 'amount', message: below });
        } else {
          const { validation } = await validateSmartcard(app, session, { provider: row.provider ?? '', smartcard: row.smartcard ?? '' });
          if (validation.name.trim()) names.set(row.row, validation.name.trim());
        }
      } catch (error) {
        if (error instanceof AppError && (error.code === 'invalid_meter' || error.code === 'invalid_smartcard')) {
          refused.set(row.row, { field: kind === 'electricity' ? 'meter' : 'smartcard', message: error.message });
        } else {
          unchecked++;
        }
      }
    }
  };
  await Promise.all(Array.from({ length: CHECK_CONCURRENCY }, worker));
  if (refused.size > 0) {
    result.valid = result.valid.filter((v) => !refused.has(v.row));
    const added = [...refused].map(([row, r]) => ({ row, field: r.field, message: rowSentence(row, r.message) }));
    result.errors = [...result.errors, ...added].sort((a, b) => a.row - b.row);
    result.invalid = [...result.invalid, ...added.map((a) => ({ row: a.row, issues: [a] }))].sort((a, b) => a.row - b.row);
    result.totalKobo = result.valid.reduce((s, v) => s + v.amountKobo, 0);
    result.counts = { ...result.counts, valid: result.valid.length, invalid: result.counts.invalid + refused.size };
  }
  const note =
    unchecked > 0
      ? `${unchecked} ${kind === 'electricity' ? 'meter' : 'smartcard'}(s) could not be checked with the service now; each is checked again just before it is bought, and nothing is charged for one it refuses.`
      : null;
  return { note, names };
}

/**
 * The item state a purchase's state means, with its reason (`stateMeaning`, one place for what a
 * state means). `sending` purchases are left to the runner.
 */
export function itemFromPurchase(p: PurchaseStateFields): { state: ItemState; reason: string | null } | null {
  const state = ITEM_STATE_OF_PURCHASE[p.state];
  return state ? { state, reason: stateMeaning({ of: 'row', purchase: p }).text } : null;
}

/** The item state of each purchase state (a purchase still waiting for support or not found is pending to its row). */
const ITEM_STATE_OF_PURCHASE: Record<string, ItemState | undefined> = {
  success: 'success',
  failed: 'failed',
  rejected: 'rejected',
  pending: 'pending',
  needs_support: 'pending',
  not_found: 'pending',
  uncertain: 'uncertain',
};
