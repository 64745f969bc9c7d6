/**
 * What the service says became of airtime and data items: their outcome and wallet cost from its
 * log (by reference), a requery for an item the log still shows pending 2 minutes 1 second after
 * it was sent, and the settling of an item whose request may or may not have reached it
 * (`uncertain`). Used by the job runner while a job runs, and by the follow-up of finished and
 * cancelled jobs (`jobFollowUp.ts`), so an item is judged the same way wherever it is checked.
 * `now` is the service's clock (as the job stores `sent_ms`): a test moves it past the 2 min 1 s rule.
 */
import { formatDateTime } from '../../shared/localDates';
import type { ParsedLogEntry } from '../api/parseLogEntry';
import { firstRequeryDueMs, requeryBackoffMs } from '../api/requeryBackoff';
import { askRequery, type RequeryVerdict } from '../api/requeryAnswer';
import type { VendingClient } from '../api/vendingClient';
import type { ItemState } from './jobStates';
import type { AppPart, Session } from '../appContext';
import { requeryPurchase } from '../purchases';
import type { ItemMoves } from './itemMoves';
import type { JobReads } from './jobReads';
import type { DueRequery, ItemRow, JobRow } from './jobRows';
import { logEntriesAroundSend, logEntriesForReference, logEntriesSince } from '../api/logLookup';
import { matchSentPurchase } from '../api/logMatch';
import { itemStateOfEntry } from './jobStates';

export type OutcomeClient = Pick<VendingClient, 'logEntries' | 'logPage' | 'requery'>;

/** A failed item's reason, as its job's row says it (a single purchase's receipt states the refund itself, at the log's figure). */
export const FAILED_REASON = 'The service reported this purchase FAILED; the amount is refunded to the wallet.';
/** Requeries per check: the rest wait for the next one. */
const REQUERIES_PER_CHECK = 10;
/** By reference one at a time up to this many items; more are read from the log since the earliest was sent. */
const BY_REFERENCE_UP_TO = 5;
/** An uncertain item sent this many times without a clear answer is left to the user. */
export const MAX_ATTEMPTS = 5;

/**
 * When an accepted or pending item may next be requeried, or null when never again: with no
 * requery yet, 2 minutes 1 second after it was sent; afterwards as the last requery set it
 * (null once the service said it will answer no more, or knows no such transaction).
 */
export function requeryDueAt(item: Pick<ItemRow, 'sent_ms' | 'next_requery_ms' | 'requery_tries' | 'reference'>): number | null {
  if (!item.reference) return null;
  if (item.next_requery_ms !== null) return item.next_requery_ms;
  return item.requery_tries === 0 ? firstRequeryDueMs(item.sent_ms ?? 0) : null;
}

/** The log entries that may be `items`' own: by reference for a few, else everything since the earliest was sent. */
async function entriesFor(client: OutcomeClient, job: JobRow, items: readonly ItemRow[], now: number): Promise<Map<string, ParsedLogEntry>> {
  const wanted = items.filter((i) => i.reference);
  let entries: ParsedLogEntry[] = [];
  if (wanted.length === 0) return new Map();
  if (wanted.length <= BY_REFERENCE_UP_TO) {
    for (const item of wanted) entries.push(...(await logEntriesForReference(client, job.kind, item.reference ?? '')));
  } else {
    const since = wanted.reduce((m, i) => Math.min(m, i.sent_ms ?? now), now);
    entries = await logEntriesSince(client, job.kind, since, new Set(wanted.map((i) => i.reference ?? '')));
  }
  return new Map(entries.map((e) => [e.transactionId, e]));
}

/**
 * Reads the log for items that have a reference: each learns its wallet cost
 * (`transaction_cost`) when not known yet, and with `settle` (airtime and data) accepted and
 * pending ones take the outcome it shows (SUCCESS or FAILED); those it does not settle are
 * requeried when due (unless `requery` is false: the requery loop asks about them). Returns how
 * many items changed; a log that cannot be read now changes nothing (the next check tries again).
 */
export async function readOutcomes(
  client: OutcomeClient,
  moves: ItemMoves,
  job: JobRow,
  items: readonly ItemRow[],
  now: () => number,
  options: { settle: boolean; requery?: boolean } = { settle: true },
): Promise<number> {
  let byRef: Map<string, ParsedLogEntry>;
  try {
    byRef = await entriesFor(client, job, items, now());
  } catch {
    return 0;
  }
  let changed = 0;
  const stillOpen: ItemRow[] = [];
  for (const item of items) {
    const entry = item.reference ? byRef.get(item.reference) : undefined;
    const open = options.settle && (item.state === 'accepted' || item.state === 'pending');
    if (open && entry?.status === 'SUCCESS') moves.outcome(job.id, item.seq, 'success', item.state === 'accepted' ? item.reason : null, 'log', entry.costKobo);
    else if (open && entry?.status === 'FAILED') moves.outcome(job.id, item.seq, 'failed', FAILED_REASON, 'log', entry.costKobo);
    else {
      if (open) stillOpen.push(item);
      if (entry && item.cost_kobo === null && moves.setCost(job.id, item.seq, entry.costKobo)) changed++;
      continue;
    }
    changed++;
  }
  // The requery loop asks about the items of a job no process runs; a run and "Check again" ask here.
  return options.requery === false ? changed : changed + (await requeryDue(client, moves, job, stillOpen, now()));
}

/**
 * Items the log still shows as not final once their requery is due are asked about (a few per
 * check), each by `requeryItem`.
 */
async function requeryDue(client: OutcomeClient, moves: ItemMoves, job: JobRow, items: readonly ItemRow[], t: number): Promise<number> {
  const due = items.filter((i) => {
    const at = requeryDueAt(i);
    return at !== null && at <= t;
  });
  let changed = 0;
  for (const item of due.slice(0, REQUERIES_PER_CHECK)) if ((await requeryTopUp(client, moves, job, item, t)).changed) changed++;
  return changed;
}

/**
 * Who asks: the app (whose purchases module writes a vending detail), the session asked on, the
 * items' moves, and the client of an airtime or data item's job (taken when one is asked about).
 */
export interface RequeryDeps {
  app: AppPart<'db' | 'service'>;
  session: Session;
  moves: ItemMoves;
  client: () => OutcomeClient;
}

/**
 * What one requery learned: whether the record changed, and what the service said of the purchase
 * (`said`; null when it gave no answer about it this time, `note` says why: too early, the provider
 * unreachable, no more status checks, no such transaction, the network).
 */
export interface RequeryOutcome {
  changed: boolean;
  said: 'SUCCESS' | 'FAILED' | 'PENDING' | null;
  note: string | null;
}

/**
 * The one requery path: asks the service about one thing whose final answer is still to come,
 * whatever it buys, by the one requery rule (`api/requeryAnswer.ts`), and writes what it says where
 * it belongs. An electricity or cable purchase's answer goes into the purchase, the vending detail
 * the purchases module writes (token, units, refund: `purchases/requeryPurchase.ts`), and its item
 * follows it in the same write; an airtime or data item's goes into the item. The requery loop asks
 * it about everything due (`JobReads.dueForRequery`), Reconcile's "Requery all pending" about the
 * items of a run that are vendesk's own (`BulkService.requeryNow`); a run asks about its own items,
 * and "Check again" about its job's (`requeryDue`). `t`: the service's clock.
 */
export async function requeryItem(deps: RequeryDeps, due: DueRequery, t: number): Promise<RequeryOutcome> {
  if (due.purchase === null) return requeryTopUp(deps.client(), deps.moves, due.job, due.item, t);
  const row = await requeryPurchase(deps.app, deps.session, due.purchase.id);
  const said = row.state === 'success' ? 'SUCCESS' : row.state === 'failed' ? 'FAILED' : row.state === 'pending' ? 'PENDING' : null;
  return { changed: row.state !== due.purchase.state, said, note: said === null ? (row.last_requery_note ?? row.reason) : null };
}

/**
 * An airtime or data item's requery: SUCCESS and FAILED settle the item; PENDING, 425 (too early)
 * and 502 ask again when the rule says; 429 (no more requeries) and 404 are noted on the item for
 * the user, and it is not requeried again (its log is still read).
 */
async function requeryTopUp(client: OutcomeClient, moves: ItemMoves, job: JobRow, item: ItemRow, t: number): Promise<RequeryOutcome> {
  let verdict: RequeryVerdict;
  try {
    verdict = await askRequery(client, item.reference as string, item.requery_tries + 1);
  } catch (error) {
    // The request itself failed (the network): asked again after the backoff.
    moves.setNextRequery(job.id, item.seq, t + requeryBackoffMs(item.requery_tries + 1));
    return { changed: false, said: null, note: error instanceof Error ? error.message : String(error) };
  }
  switch (verdict.kind) {
    case 'success':
    case 'failed':
      moves.setNextRequery(job.id, item.seq, t + requeryBackoffMs(item.requery_tries + 1));
      if (verdict.kind === 'success') moves.outcome(job.id, item.seq, 'success', item.state === 'accepted' ? item.reason : null, 'requery');
      else moves.outcome(job.id, item.seq, 'failed', FAILED_REASON, 'requery');
      return { changed: true, said: verdict.kind === 'success' ? 'SUCCESS' : 'FAILED', note: null };
    case 'support':
    case 'not_found': {
      const note = `${verdict.error.message} ${verdict.error.hint ?? ''}`.trim();
      moves.setNextRequery(job.id, item.seq, null);
      moves.outcome(job.id, item.seq, item.state === 'pending' ? 'pending' : 'accepted', note, 'requery');
      return { changed: true, said: null, note };
    }
    case 'pending':
      moves.setNextRequery(job.id, item.seq, t + verdict.nextInMs);
      return { changed: false, said: 'PENDING', note: null };
    case 'later':
      moves.setNextRequery(job.id, item.seq, t + verdict.nextInMs);
      return { changed: false, said: null, note: verdict.error.message };
  }
}

/**
 * Settles an uncertain airtime or data item from the log: the entry `matchSentPurchase` (api/logMatch.ts) finds
 * settles it as the log says. When the log was read completely and holds no unowned entry of that
 * phone and amount from 30 minutes before it was sent on, it was not bought: `whenAbsent` says
 * whether it is sent again (queued) or, for a cancelled job, recorded as not bought. After
 * `MAX_ATTEMPTS` sends, or when an unowned entry lies beyond the window, it is left to the user.
 * The caller waits the safe delay after sending before asking. Returns the item's new state
 * (null: unchanged).
 */
export async function settleUncertainItem(
  client: OutcomeClient,
  { reads, moves }: { reads: JobReads; moves: ItemMoves },
  job: JobRow,
  item: ItemRow,
  whenAbsent: 'send_again' | 'not_bought',
  now: () => number,
): Promise<ItemState | null> {
  let entries: ParsedLogEntry[];
  try {
    entries = await logEntriesAroundSend(client, job.kind, item.phone, item.sent_ms ?? 0);
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    moves.stillUncertain(job.id, item.seq, `Could not be checked against the service log yet (${message}); vendesk tries again.`);
    return null;
  }
  const match = matchSentPurchase(item, job.kind, entries, (reference) => reads.isReferenceClaimed(reference));
  if (match.byReference) {
    const state = itemStateOfEntry(match.byReference);
    return moves.claimFromLog(job.id, item.seq, match.byReference.transactionId, state, 'log: reference', match.byReference.costKobo) ? state : null;
  }
  for (const candidate of match.candidates) {
    const state = itemStateOfEntry(candidate);
    if (moves.claimFromLog(job.id, item.seq, candidate.transactionId, state, 'log: phone, amount and time', candidate.costKobo)) return state;
  }
  const later = match.beyondWindow;
  if (later) {
    moves.stillUncertain(
      job.id,
      item.seq,
      `The service log has a purchase of the same phone and amount (reference ${later.transactionId}, ${formatDateTime(later.createdAt)}) that vendesk cannot tie to this item for sure. Check it, then mark this item bought or not bought.`,
    );
    return null;
  }
  const sent = item.sent_ms ?? 0;
  // Confirmed absent: the log was read completely, after the safe delay, and holds no entry.
  const after = `${Math.round((now() - sent) / 1000)} s after sending`;
  if (whenAbsent === 'not_bought') {
    const moved = moves.notBought(
      job.id,
      [item.seq],
      'Not in the service log: it was not bought. The job was cancelled, so it was not sent again; nothing was charged for it.',
      `log: no matching entry ${after}`,
    );
    return moved === 1 ? 'cancelled' : null;
  }
  if (item.attempts >= MAX_ATTEMPTS) {
    moves.stillUncertain(
      job.id,
      item.seq,
      `Sent ${item.attempts} times without a clear answer and not found in the service log. Check it with the service, then mark it bought or not bought.`,
    );
    return null;
  }
  const moved = moves.sendAgain(job.id, [item.seq], `log: no matching entry ${after}; sent again`);
  return moved === 1 ? 'queued' : null;
}
