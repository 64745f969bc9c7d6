/**
 * How an electricity or cable job sends its items: one at a time per slot through the purchases
 * module (`vendingItems.ts`), which validates the meter or smartcard and writes the purchase
 * before its request leaves; the item is linked to its purchase in the transaction that writes it,
 * and follows its state. An item caught `sending` by a crash is settled by its purchase: none
 * written means it was never sent (it goes again); a purchase in `sending` or `uncertain` is
 * settled by the purchases module from the log, and the item is never sent again. Pending
 * purchases are chased by the requery loop. (`findUnlinkedPurchase` finds the purchase of an item
 * left by a vendesk that linked it only after the answer.)
 */
import { AppError } from '../../shared/appError';
import { RequestCancelledError, ServiceError, UncertainOutcomeError } from '../api/serviceErrors';
import type { VendingJobKind } from './jobStates';
import type { ItemRow } from './jobRows';
import type { RunContext, SendStrategy } from './runContext';
import * as policy from './sendPolicy';
import { isInsufficientBalance } from './sendPolicy';
import { itemFromPurchase, type VendingBuyer } from './vendingItems';

export class VendingSending implements SendStrategy {
  readonly waitsSafeDelay = false;

  constructor(
    private readonly ctx: RunContext,
    private readonly kind: VendingJobKind,
    private readonly vending: VendingBuyer,
  ) {}

  readonly oneItemPerRequest = true;
  /**
   * A single purchase's item is committed `sending` with its purchase, in the write that records
   * the purchase before its request leaves. A file's row is marked by the runner as it is picked,
   * before its meter or smartcard is checked: from then on it counts against the job's and the
   * day's spending caps, in this process and any other, while a row picked beside it is checked
   * against them. A single purchase is under no cap.
   */
  get marksItsOwnSending(): boolean {
    return this.ctx.job.origin === 'single';
  }

  /** A single purchase answers with its purchase as the service's answer left it, as a bulk row never needs to. */
  get waitsForUncertain(): boolean {
    return this.ctx.job.origin !== 'single';
  }

  /** Buys the item through the purchases module and mirrors the outcome. */
  async send(batch: ItemRow[]): Promise<void> {
    const { reads, moves, job } = this.ctx;
    const item = batch[0];
    try {
      // The item is linked to its purchase, and `sending`, as the purchase is written before its request leaves.
      await this.vending.buy(this.kind, item, (purchaseId) => moves.sendAsPurchase(job.id, item.seq, purchaseId, this.ctx.now()));
      this.afterPurchase(item);
      policy.answered(this.ctx);
    } catch (error) {
      // A single purchase answers with why it was not bought, unless a purchase of it was written after all.
      if (job.origin === 'single') this.ctx.sending.refused = error;
      // The purchases module writes the purchase before sending and then never throws; be sure anyway.
      const current = reads.item(job.id, item.seq) ?? item;
      const written = current.purchase_id ? { id: current.purchase_id } : reads.findUnlinkedPurchase(this.kind, current);
      if (written) {
        moves.linkPurchase(job.id, item.seq, written.id);
        await this.vending.settle(written.id);
        this.afterPurchase(item);
        return;
      }
      // Nothing was written for it, so nothing left. Cancelled meanwhile, it stays cancelled;
      // else it is counted as an attempt, as any item that was to be sent, and the refusal applies.
      if (current.state === 'queued' || current.state === 'held') moves.markSending(job.id, [item.seq], this.ctx.now());
      else if (current.state !== 'sending') return;
      this.refusedBeforeCharge(item, error);
    }
  }

  /** The item follows its purchase; a purchase still without an answer makes the item uncertain. */
  private afterPurchase(item: ItemRow): void {
    const { reads, moves, job } = this.ctx;
    moves.syncFromPurchases(job.id, itemFromPurchase);
    const now = reads.item(job.id, item.seq);
    if (now?.state === 'sending') {
      moves.uncertain(job.id, [item.seq], 'Sent, but no answer came back; it may have been charged. vendesk settles it from the transaction log; it is never sent again.');
    }
    if (now?.state === 'rejected' && isInsufficientBalance(now.reason ?? '')) policy.insufficientBalance(this.ctx, [], now.reason ?? '');
  }

  /** No purchase was written for the item: nothing was sent or charged. */
  private refusedBeforeCharge(item: ItemRow, error: unknown): void {
    const { moves, job } = this.ctx;
    const seqs = [item.seq];
    if (job.origin === 'single') {
      // A single purchase is refused as it was asked, at once: the run answers why (the purchase
      // refuses with it), and nothing of it waits to be sent later.
      moves.refuse(job.id, seqs, notCharged(refusalText(error)));
      return;
    }
    if (error instanceof AppError && error.code === 'duplicate_pending') {
      policy.hold(
        this.ctx,
        item,
        `Held: ${error.message} Sent after it is settled.`,
        `${error.message} This row was not bought (nothing was charged); buy it again once that purchase is settled.`,
      );
      return;
    }
    const transient =
      error instanceof RequestCancelledError ||
      error instanceof UncertainOutcomeError ||
      (error instanceof ServiceError && error.action === 'retry_later') ||
      !(error instanceof AppError || (error instanceof Error && error.name === 'ZodError'));
    if (transient) {
      const message = error instanceof Error ? error.message : String(error);
      policy.retryLater(this.ctx, seqs, `Could not be checked with the service yet (${message}); nothing was charged, tried again automatically`, message);
      return;
    }
    if (error instanceof ServiceError && error.action === 'credentials') {
      policy.credentials(this.ctx, seqs, error);
      return;
    }
    const reason = refusalText(error);
    moves.refuse(job.id, seqs, notCharged(reason));
  }

  /** Pending purchases are chased by the requery loop; the items follow their purchases. */
  async pollOutcomes(): Promise<void> {
    this.ctx.moves.syncFromPurchases(this.ctx.job.id, itemFromPurchase);
  }

  /**
   * Items left `sending` or `uncertain`: no purchase written means never sent (queued again);
   * otherwise the purchase is settled by the purchases module and the item follows it.
   */
  async settleUncertain(): Promise<void> {
    const { reads, moves, job } = this.ctx;
    for (const item of reads.items(job.id, { states: ['uncertain'] })) {
      if (this.ctx.cancelled()) return;
      const purchase = item.purchase_id ? { id: item.purchase_id } : reads.findUnlinkedPurchase(this.kind, item);
      if (!purchase) {
        moves.sendAgain(job.id, [item.seq], 'no purchase was written for it, so it was never sent; sent again');
        continue;
      }
      moves.linkPurchase(job.id, item.seq, purchase.id);
      await this.vending.settle(purchase.id);
      moves.syncFromPurchases(job.id, itemFromPurchase);
    }
  }
}

function refusalText(error: unknown): string {
  return error instanceof AppError ? `${error.message}${error.hint ? ` ${error.hint}` : ''}` : error instanceof Error ? error.message : String(error);
}

function notCharged(reason: string): string {
  return /nothing was charged/i.test(reason) ? reason : `${reason} Nothing was charged.`;
}
