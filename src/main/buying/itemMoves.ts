/**
 * The one module that writes a bulk item's state. Every move is named (`ITEM_MOVES`: the states it
 * comes from and those it goes to), checked against the item state table when this module loads
 * (`src/shared/bulkStateTables.ts`: a move the table does not hold throws here, before anything
 * runs), and written with its `WHERE state IN (…)` built from it. An item no longer in a state a
 * move comes from is left as it is: another step moved it first. Migration 30's trigger refuses
 * any other path the database is asked to take; test/unit/bulk/oneDoor.test.ts fails on SQL
 * outside this module that writes an item's state.
 *
 * Each move is one committed statement, or one transaction for a batch, made before the next
 * network step: `markSending` commits before the request leaves, the answer is recorded right
 * after it arrives. The other writes of an item once it exists (its link to its purchase, its
 * wallet cost, its next requery, a draft row's network, its cost centre) are here too; an item is first written
 * with its job (`jobLifecycle.ts`). Which items a run sends next is read here as well
 * (`nextBatch`): they are the items that may move to `sending` now.
 *
 * Longer than 400 lines on purpose: it is the item state machine's one door, so every statement
 * that moves an item, and the table check they share, are in this file and nowhere else.
 */
import type Database from 'better-sqlite3';
import { AppError } from '../../shared/appError';
import type { Db } from '../store/database';
import type { ItemRow, NewItem, PurchaseStateFields } from './jobRows';
import { guardsOf, stateIn, type NamedMove } from '../../shared/bulkStateTables';
import { ITEM_STATE_TABLE, ITEM_STATES, statesLeadingTo, type ItemState } from './jobStates';

type Move = NamedMove<ItemState>;

/**
 * Every move of an item, by name. Where a move was written without a guard of its own before
 * (an answer, a purchase's state), it comes from every state the table leads from.
 */
export const ITEM_MOVES = {
  /** Picked to be sent: committed before the request leaves. */
  markSending: { from: ['queued', 'held'], to: ['sending'] },
  /** An electricity or cable item, in the write of the purchase it is sent as (already `sending` when the runner marked it). */
  sendAsPurchase: { from: ['queued', 'held', 'sending'], to: ['sending'] },
  /** The service accepted it and gave its reference. */
  accept: { from: statesLeadingTo('accepted'), to: ['accepted'] },
  /** It did not leave, or the service did nothing with it: back in the queue (nothing charged). */
  unsent: { from: ['sending'], to: ['queued'] },
  /** The service answered 429: another purchase of the same phone (or meter) and amount is in progress. */
  hold: { from: ['sending'], to: ['held'] },
  /** Refused (by the service, or before a purchase was written): nothing charged. */
  refuse: { from: ['sending'], to: ['rejected'] },
  /** Sent without a usable answer: it may have been charged. */
  uncertain: { from: ['sending'], to: ['uncertain'] },
  /** A vendesk stopped while it was being sent. */
  recoverSending: { from: ['sending'], to: ['uncertain'] },
  /** Another team desktop claimed (and so sent) it: settled from the log at the claim's time, never sent from here. */
  sentElsewhere: { from: ['sending'], to: ['uncertain'] },
  /** An accepted or pending item's outcome from the log or a requery. */
  outcome: { from: ['accepted', 'pending'], to: ['success', 'failed', 'pending', 'accepted'] },
  /** A run ended with its outcome not in the log yet. */
  pendingAfterRun: { from: ['accepted'], to: ['pending'] },
  /** A resumed job reads the outcome of its pending items again. */
  reaccept: { from: ['pending'], to: ['accepted'] },
  /** An uncertain item found in the service's log: bought (or being bought). */
  claimFromLog: { from: ['uncertain'], to: ['success', 'failed', 'accepted'] },
  /** Still uncertain, with a new reason. */
  stillUncertain: { from: ['uncertain'], to: ['uncertain'] },
  /** Not bought: absent from a log read completely, or marked so by the user. */
  notBought: { from: ['uncertain'], to: ['cancelled'] },
  /** Not bought, so sent again: absent from the log, no purchase written for it, or the user's choice. */
  sendAgain: { from: ['uncertain'], to: ['queued'] },
  /** Marked bought by the user. */
  markBought: { from: ['uncertain'], to: ['success'] },
  /** Never sent: its job was cancelled, stopped before it, or the team closed it. */
  cancelUnsent: { from: ['queued', 'held'], to: ['cancelled'] },
  /** A draft's row left out, or taken back in. */
  exclude: { from: ['queued'], to: ['excluded'] },
  include: { from: ['excluded'], to: ['queued'] },
} as const satisfies Record<string, Move>;

export type ItemMoveName = keyof typeof ITEM_MOVES;

/** The guard of each move (built as the module loads, which throws on a move outside the table). */
const guard = guardsOf(ITEM_STATE_TABLE, ITEM_MOVES, 'Item');

/** An item follows its purchase from any state the table leads from to the purchase's: the guard for each state it may follow to. */
const FOLLOW_GUARD = Object.fromEntries(ITEM_STATES.map((s) => [s, stateIn(statesLeadingTo(s))])) as Record<ItemState, string>;

const now = (): string => new Date().toISOString();

/** What a move writes beside the state. */
interface MoveFields {
  reason?: string | null;
  settledBy?: string | null;
  notBeforeMs?: number | null;
  /** Sent alone from now on. */
  solo?: boolean;
  /** Counted as one more hold. */
  hold?: boolean;
  /** Its final time is now. */
  final?: boolean;
}

/** What a purchase's state means for the item linked to it (`buying/vendingItems.ts` says it); null: leave the item as it is. */
export type ItemFromPurchase = (p: PurchaseStateFields) => { state: ItemState; reason: string | null } | null;

/** The item states whose wallet cost is learned from their purchase's commission. */
const COSTED_ITEM_STATES: ReadonlySet<ItemState> = new Set(['accepted', 'pending', 'success', 'failed']);

/** Items that must never be in flight together: same phone (or meter/smartcard) and amount. */
export function itemKey(item: { phone: string; amount_kobo: number; account?: string | null }): string {
  return `${item.account ?? item.phone}|${item.amount_kobo}`;
}

export class ItemMoves {
  private readonly statements = new Map<string, Database.Statement>();

  constructor(readonly db: Db) {}

  /** A statement compiled once per SQL text (moves run per row or per batch). */
  private stmt(sql: string): Database.Statement {
    let statement = this.statements.get(sql);
    if (!statement) {
      statement = this.db.prepare(sql);
      this.statements.set(sql, statement);
    }
    return statement;
  }

  /** Moves `seqs` of a job by `name` to `to`, with `fields`; returns how many moved. */
  private move(name: ItemMoveName, jobId: string, seqs: readonly number[], to: ItemState, fields: MoveFields = {}): number {
    if (!(ITEM_MOVES[name].to as readonly ItemState[]).includes(to)) throw new Error(`The item move ${name} does not lead to ${to}.`);
    const sets = ['state = @to', 'updated_at = @at'];
    if (fields.reason !== undefined) sets.push('reason = @reason');
    if (fields.settledBy !== undefined) sets.push('settled_by = @settledBy');
    if (fields.notBeforeMs !== undefined) sets.push('not_before_ms = @notBeforeMs');
    if (fields.solo) sets.push('solo = 1');
    if (fields.hold) sets.push('holds = holds + 1');
    if (fields.final) sets.push('final_at = @at');
    const stmt = this.stmt(`UPDATE bulk_items SET ${sets.join(', ')} WHERE job_id = @jobId AND seq = @seq AND ${guard[name]}`);
    const values = { to, at: now(), jobId, reason: fields.reason ?? null, settledBy: fields.settledBy ?? null, notBeforeMs: fields.notBeforeMs ?? null };
    let changed = 0;
    this.db.transaction(() => {
      for (const seq of seqs) changed += stmt.run({ ...values, seq }).changes;
    })();
    return changed;
  }

  // ------------------------------------------------------------------ sending

  /**
   * The next batch of a job to send now, in file order: at most `limit` items ready to go (from
   * the first `scan`), none with the phone (or meter) and amount of an item that may be in
   * progress at the service (sending, accepted or uncertain here, or `inFlight` in this run) nor
   * of another item of the batch. An item that must go alone (`solo`) goes in a batch of its own.
   * `keys`: the batch's `itemKey`s, which are in flight while it is sent.
   */
  nextBatch(jobId: string, { at, limit, scan, inFlight }: { at: number; limit: number; scan: number; inFlight: ReadonlySet<string> }): { items: ItemRow[]; keys: string[] } {
    const candidates = this.stmt(`SELECT * FROM bulk_items WHERE job_id = ? AND ${guard.markSending} AND (not_before_ms IS NULL OR not_before_ms <= ?) ORDER BY seq LIMIT ?`).all(
      jobId,
      at,
      scan,
    ) as ItemRow[];
    const batch: { items: ItemRow[]; keys: string[] } = { items: [], keys: [] };
    if (candidates.length === 0) return batch;
    const busy = this.busyKeys(jobId);
    for (const k of inFlight) busy.add(k);
    for (const item of candidates) {
      const key = itemKey(item);
      if (busy.has(key)) continue;
      if (item.solo) {
        if (batch.items.length === 0) return { items: [item], keys: [key] };
        continue;
      }
      batch.items.push(item);
      batch.keys.push(key);
      busy.add(key);
      if (batch.items.length >= limit) break;
    }
    return batch;
  }

  /** The `itemKey`s (phone or meter/smartcard, and amount) of this job's items that may be in progress at the service: sending, accepted or uncertain. */
  busyKeys(jobId: string): Set<string> {
    const rows = this.stmt("SELECT phone, account, amount_kobo FROM bulk_items WHERE job_id = ? AND state IN ('sending', 'accepted', 'uncertain')").all(jobId) as {
      phone: string;
      account: string | null;
      amount_kobo: number;
    }[];
    return new Set(rows.map((r) => itemKey(r)));
  }

  /** Committed before the request leaves: a crash after this leaves the items `sending`. `sentMs`: the service's clock. */
  markSending(jobId: string, seqs: readonly number[], sentMs: number): void {
    const at = now();
    const stmt = this.stmt(
      `UPDATE bulk_items SET state = 'sending', attempts = attempts + 1, sent_ms = ?, not_before_ms = NULL, updated_at = ? WHERE job_id = ? AND seq = ? AND ${guard.markSending}`,
    );
    this.db.transaction(() => {
      for (const seq of seqs) {
        const r = stmt.run(sentMs, at, jobId, seq);
        if (r.changes !== 1) throw new Error(`item ${seq} of job ${jobId} was not ready to send`);
      }
    })();
  }

  /**
   * The item is sent as this purchase, in the purchase's write before its request leaves: linked
   * to it and `sending` (counted as an attempt sent at `sentMs`, unless the runner marked it
   * already). Throws `purchase_not_sent` when the item is no longer to be sent (its job was
   * cancelled meanwhile): the purchase is not written, and nothing leaves.
   */
  sendAsPurchase(jobId: string, seq: number, purchaseId: string, sentMs: number): void {
    const marked = this.stmt(
      `UPDATE bulk_items SET purchase_id = @purchaseId, state = 'sending',
        attempts = attempts + (state <> 'sending'), sent_ms = CASE WHEN state = 'sending' THEN sent_ms ELSE @sentMs END,
        not_before_ms = CASE WHEN state = 'sending' THEN not_before_ms END, updated_at = @at
       WHERE job_id = @jobId AND seq = @seq AND purchase_id IS NULL AND ${guard.sendAsPurchase}`,
    ).run({ purchaseId, sentMs, at: now(), jobId, seq });
    // A queued item leaves for a state that is never sent only when its job is cancelled.
    if (marked.changes !== 1) throw new AppError('purchase_not_sent', 'This purchase was cancelled before it was sent. Nothing was bought.', 'Buy it again if it is still wanted.');
  }

  // ------------------------------------------------------------------ the service's answer

  accept(jobId: string, accepted: readonly { seq: number; reference: string }[], note: string | null): void {
    const at = now();
    const stmt = this.stmt(`UPDATE bulk_items SET state = 'accepted', reference = ?, reason = ?, updated_at = ? WHERE job_id = ? AND seq = ? AND ${guard.accept}`);
    this.db.transaction(() => {
      for (const a of accepted) stmt.run(a.reference, note, at, jobId, a.seq);
    })();
  }

  /** Back in the queue, nothing charged; `notBeforeMs`: not sent again before then; `solo`: sent alone from now on. */
  unsent(jobId: string, seqs: readonly number[], fields: Pick<MoveFields, 'reason' | 'notBeforeMs' | 'solo'> = {}): number {
    return this.move('unsent', jobId, seqs, 'queued', fields);
  }

  hold(jobId: string, seq: number, reason: string, notBeforeMs: number): number {
    return this.move('hold', jobId, [seq], 'held', { hold: true, notBeforeMs, reason });
  }

  refuse(jobId: string, seqs: readonly number[], reason: string): number {
    return this.move('refuse', jobId, seqs, 'rejected', { reason, final: true });
  }

  uncertain(jobId: string, seqs: readonly number[], reason: string): number {
    return this.move('uncertain', jobId, seqs, 'uncertain', { reason });
  }

  /** After a crash: whatever was `sending` may have been bought. */
  recoverSending(jobId: string): number {
    return this.stmt(
      `UPDATE bulk_items SET state = 'uncertain', reason = 'vendesk stopped while this item was being sent; it is checked against the service log before anything is sent again', updated_at = ? WHERE job_id = ? AND ${guard.recoverSending}`,
    ).run(now(), jobId).changes;
  }

  /** Rows another team desktop claimed: uncertain, each searched for in the log from when it was claimed (`sentMs`), in one transaction. */
  sentElsewhere(jobId: string, rows: readonly { seq: number; reason: string; sentMs: number }[]): void {
    const stmt = this.stmt(
      `UPDATE bulk_items SET state = 'uncertain', reason = @reason, sent_ms = @sentMs, updated_at = @at WHERE job_id = @jobId AND seq = @seq AND ${guard.sentElsewhere}`,
    );
    const at = now();
    this.db.transaction(() => {
      for (const r of rows) stmt.run({ ...r, at, jobId });
    })();
  }

  // ------------------------------------------------------------------ outcomes

  /**
   * An accepted or pending item's outcome from the log or a requery (with the log entry's cost
   * when read there). An item another check already settled is left as it is.
   */
  outcome(jobId: string, seq: number, to: 'success' | 'failed' | 'pending' | 'accepted', reason: string | null, settledBy: string, costKobo: number | null = null): void {
    const at = now();
    this.stmt(
      `UPDATE bulk_items SET state = ?, reason = ?, settled_by = COALESCE(settled_by, ?), cost_kobo = COALESCE(?, cost_kobo), updated_at = ?, final_at = CASE WHEN ? IN ('success', 'failed') THEN ? ELSE final_at END WHERE job_id = ? AND seq = ? AND ${guard.outcome}`,
    ).run(to, reason, settledBy, costKobo, at, to, at, jobId, seq);
  }

  pendingAfterRun(jobId: string, seqs: readonly number[], reason: string): number {
    return this.move('pendingAfterRun', jobId, seqs, 'pending', { reason });
  }

  reaccept(jobId: string, seqs: readonly number[]): number {
    return this.move('reaccept', jobId, seqs, 'accepted');
  }

  /** An uncertain item found in the service's log: it was bought (or is being), at the entry's cost. False when another item owns the entry. */
  claimFromLog(jobId: string, seq: number, reference: string, to: 'success' | 'failed' | 'accepted', settledBy: string, costKobo: number | null = null): boolean {
    const at = now();
    try {
      const r = this.stmt(
        `UPDATE bulk_items SET state = ?, reference = ?, settled_by = ?, reason = NULL, cost_kobo = COALESCE(?, cost_kobo), updated_at = ?, final_at = CASE WHEN ? IN ('success', 'failed') THEN ? ELSE final_at END WHERE job_id = ? AND seq = ? AND ${guard.claimFromLog}`,
      ).run(to, reference, settledBy, costKobo, at, to, at, jobId, seq);
      return r.changes === 1;
    } catch (error) {
      // The unique index on reference: another item already owns this log entry.
      if (error instanceof Error && /UNIQUE/.test(error.message)) return false;
      throw error;
    }
  }

  stillUncertain(jobId: string, seq: number, reason: string): number {
    return this.move('stillUncertain', jobId, [seq], 'uncertain', { reason });
  }

  notBought(jobId: string, seqs: readonly number[], reason: string, settledBy: string): number {
    return this.move('notBought', jobId, seqs, 'cancelled', { reason, settledBy, final: true });
  }

  sendAgain(jobId: string, seqs: readonly number[], settledBy: string): number {
    return this.move('sendAgain', jobId, seqs, 'queued', { reason: null, settledBy });
  }

  markBought(jobId: string, seqs: readonly number[], reason: string, settledBy: string): number {
    return this.move('markBought', jobId, seqs, 'success', { reason, settledBy, final: true });
  }

  /** Items never sent are cancelled, with why; `final`: their final time is now. */
  cancelUnsent(jobId: string, seqs: readonly number[], reason: string, { final = false }: { final?: boolean } = {}): number {
    return this.move('cancelUnsent', jobId, seqs, 'cancelled', { reason, final });
  }

  /** A draft's rows taken in (queued) or left out (excluded). */
  setIncluded(jobId: string, seqs: readonly number[], included: boolean): number {
    return included ? this.move('include', jobId, seqs, 'queued') : this.move('exclude', jobId, seqs, 'excluded');
  }

  // ------------------------------------------------------------------ electricity and cable: the item follows its purchase

  /** The columns of a purchase its item follows (read below): a change to any other (a requery's count, a time) leaves the item as it is. */
  static readonly FOLLOWED_PURCHASE_FIELDS: ReadonlySet<string> = new Set(['state', 'reference', 'reason', 'hint', 'refund_state', 'settled_by', 'final_at', 'commission_kobo']);

  /**
   * Brings each linked item of the job up to its purchase's state: the purchases module (answer,
   * requery loop, log settlement, the Pending page) is the one source of truth for them; the
   * caller says what each purchase state means for the item (`itemFromPurchase`, with its wording).
   * Returns how many items changed.
   */
  syncFromPurchases(jobId: string, itemFromPurchase: ItemFromPurchase): number {
    return this.followPurchases('b.job_id = ?', jobId, itemFromPurchase).changed;
  }

  /**
   * The item linked to this purchase, brought up to its state (in the purchase's own write:
   * `bulkPurchaseFollower` in jobFollowUp.ts). Returns its job when the item changed, else null.
   */
  followPurchase(purchaseId: string, itemFromPurchase: ItemFromPurchase): string | null {
    const { changed, jobId } = this.followPurchases('b.purchase_id = ?', purchaseId, itemFromPurchase);
    return changed > 0 ? jobId : null;
  }

  /** An item follows its purchase from any state the item table leads from to the purchase's. */
  private followStatement(to: ItemState): Database.Statement {
    return this.stmt(`UPDATE bulk_items SET state = @state, reason = @reason, reference = COALESCE(@reference, reference), settled_by = @settledBy,
  final_at = CASE WHEN @state IN ('success', 'failed', 'rejected') THEN COALESCE(final_at, @at) ELSE final_at END,
  cost_kobo = COALESCE(cost_kobo, @costKobo), updated_at = @at
 WHERE job_id = @jobId AND seq = @seq AND ${FOLLOW_GUARD[to]}`);
  }

  private followPurchases(where: 'b.job_id = ?' | 'b.purchase_id = ?', key: string, itemFromPurchase: ItemFromPurchase): { changed: number; jobId: string | null } {
    const rows = this.stmt(
      `SELECT b.job_id, b.seq, b.state AS item_state, b.reason AS item_reason, b.reference AS item_reference, b.amount_kobo, b.cost_kobo,
                p.state, p.reference, p.reason, p.hint, p.refund_state, p.settled_by, p.final_at, p.commission_kobo
         FROM bulk_items b JOIN purchases p ON p.id = b.purchase_id WHERE ${where}`,
    ).all(key) as (PurchaseStateFields & {
      job_id: string;
      seq: number;
      item_state: ItemState;
      item_reason: string | null;
      item_reference: string | null;
      amount_kobo: number;
      cost_kobo: number | null;
      reference: string | null;
      settled_by: string | null;
      final_at: string | null;
      commission_kobo: number | null;
    })[];
    const at = now();
    const writes: (() => number)[] = [];
    for (const r of rows) {
      const next = itemFromPurchase(r);
      const moves = next !== null && !(next.state === r.item_state && next.reason === r.item_reason && (r.reference === null || r.reference === r.item_reference));
      // The wallet cost of a purchase whose answer gave its commission: its amount less the commission.
      const state = moves ? next.state : r.item_state;
      const costKobo = r.cost_kobo === null && r.commission_kobo !== null && COSTED_ITEM_STATES.has(state) ? r.amount_kobo - r.commission_kobo : null;
      if (moves) {
        const settledBy = r.settled_by ? `purchase: ${r.settled_by}` : null;
        writes.push(() => this.followStatement(state).run({ state, reason: next.reason, reference: r.reference, settledBy, costKobo, at, jobId: r.job_id, seq: r.seq }).changes);
      } else if (costKobo !== null) {
        writes.push(() => this.stmt('UPDATE bulk_items SET cost_kobo = ?, updated_at = ? WHERE job_id = ? AND seq = ?').run(costKobo, at, r.job_id, r.seq).changes);
      }
    }
    // Items already up to date (the common case: they moved in their purchase's own write) cost no write.
    let changed = 0;
    if (writes.length > 0)
      this.db.transaction(() => {
        for (const write of writes) changed += write();
      })();
    return { changed, jobId: rows[0]?.job_id ?? null };
  }

  // ------------------------------------------------------------------ an item's other writes

  linkPurchase(jobId: string, seq: number, purchaseId: string): void {
    this.stmt('UPDATE bulk_items SET purchase_id = ?, updated_at = ? WHERE job_id = ? AND seq = ? AND purchase_id IS NULL').run(purchaseId, now(), jobId, seq);
  }

  /** The wallet cost of an item, from its log entry; a cost once known is kept. */
  setCost(jobId: string, seq: number, costKobo: number): boolean {
    return this.stmt('UPDATE bulk_items SET cost_kobo = ? WHERE job_id = ? AND seq = ? AND cost_kobo IS NULL').run(costKobo, jobId, seq).changes === 1;
  }

  /** The department a purchase is charged to, changed after it was made (costCentres/costCentreChanges.ts records the change in the same transaction); not a state, so no move. */
  setCostCentre(jobId: string, seq: number, costCentre: string | null): void {
    this.stmt('UPDATE bulk_items SET cost_centre = ? WHERE job_id = ? AND seq = ?').run(costCentre, jobId, seq);
  }

  /** After a requery: when it may be asked again (null: no more requeries, the service will not answer them). */
  setNextRequery(jobId: string, seq: number, nextMs: number | null): void {
    this.stmt('UPDATE bulk_items SET next_requery_ms = ?, requery_tries = requery_tries + 1 WHERE job_id = ? AND seq = ?').run(nextMs, jobId, seq);
  }

  setNetwork(jobId: string, seq: number, product: { network: string; productCode: string; voucherCode: string; operator: string; region: string }): void {
    this.stmt('UPDATE bulk_items SET network = ?, product_code = ?, voucher_code = ?, operator = ?, region = ?, updated_at = ? WHERE job_id = ? AND seq = ?').run(
      product.network,
      product.productCode,
      product.voucherCode,
      product.operator,
      product.region,
      now(),
      jobId,
      seq,
    );
  }

  /** A single purchase's one item, still queued, written again as it was checked just now (what the approver approved). */
  writeAsChecked(jobId: string, item: NewItem): void {
    // Its fields by name; one it lacks (the meter of an airtime item) is written null.
    this.stmt(
      `UPDATE bulk_items SET phone = @phone, network = @network, product_code = @productCode, description = @description, amount_kobo = @amountKobo,
        given_network = @givenNetwork, prefix_network = @prefixNetwork, account = @account, vend_type = @vendType, account_name = @accountName, updated_at = @at
       WHERE job_id = @jobId AND seq = 1 AND state = 'queued'`,
    ).run({ ...item, account: item.account ?? null, vendType: item.vendType ?? null, accountName: item.accountName ?? null, jobId, at: now() });
  }
}
