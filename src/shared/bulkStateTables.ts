/**
 * The two state machines of a purchase's record as tables: a bulk item's (a row of a spreadsheet's
 * job, or the one item of a single purchase) and its job's. The one place their moves are written.
 * The bulk engine takes every guard from them (`main/buying/itemMoves.ts` for items,
 * `main/buying/jobLifecycle.ts` for jobs, the lists of `main/buying/jobStates.ts`), and the database's
 * triggers are built from them (`main/store/migrations/030_state_moves.ts`): code and database
 * hold the same moves. Here, in `shared`, because both the services and the store's migrations
 * read them.
 *
 * Staying in a state (a new reason, a new message) is always allowed and is not a move.
 */
import { BULK_ITEM_STATES, BULK_JOB_STATES, type BulkItemState, type BulkJobState } from './contract/bulk';

/** What one item state means for the job's money and progress: one row of the item table. */
export interface ItemStateRow {
  /** The states an item in this state may move to. */
  next: readonly BulkItemState[];
  /** Its money may have left the wallet (or has): it counts against spending caps and the job's spend. */
  spends: boolean;
  /** Nothing changes it any more. */
  final: boolean;
  /** Still to be sent by this job. */
  toSend: boolean;
}

/** The bulk item state machine. */
export const ITEM_STATE_TABLE: { readonly [S in BulkItemState]: ItemStateRow } = {
  // Left out before confirming (a duplicate the user dropped).
  excluded: { next: ['queued'], spends: false, final: false, toSend: false },
  queued: { next: ['sending', 'excluded', 'cancelled'], spends: false, final: false, toSend: true },
  // The service said the same phone (or meter) and amount is in progress: sent again once that one is final.
  held: { next: ['sending', 'cancelled'], spends: false, final: false, toSend: true },
  // Committed before the request leaves. Back to queued/held when the service said it did nothing.
  sending: { next: ['accepted', 'rejected', 'queued', 'held', 'uncertain', 'pending', 'success', 'failed'], spends: true, final: false, toSend: false },
  accepted: { next: ['pending', 'success', 'failed'], spends: true, final: false, toSend: false },
  // Uncertain again when an electricity or cable purchase answered pending without a reference (its requery cannot ask).
  pending: { next: ['accepted', 'success', 'failed', 'uncertain'], spends: true, final: false, toSend: false },
  // May have been charged: settled from the service's log or by hand; sent again only when the log shows it was not bought.
  uncertain: { next: ['queued', 'accepted', 'pending', 'success', 'failed', 'rejected', 'cancelled'], spends: true, final: false, toSend: false },
  success: { next: [], spends: true, final: true, toSend: false },
  failed: { next: [], spends: false, final: true, toSend: false },
  rejected: { next: [], spends: false, final: true, toSend: false },
  // Never sent (the job was cancelled), or settled as not bought.
  cancelled: { next: [], spends: false, final: true, toSend: false },
};

/** What one job state means: one row of the job table. */
export interface JobStateRow {
  /** The states a job in this state may move to (a job is discarded by deleting it: not a move). */
  next: readonly BulkJobState[];
  /** Confirmed: its items may have been sent. */
  confirmed: boolean;
  /** Nothing changes its state any more (its open items are still followed up). */
  final: boolean;
}

/** The bulk job state machine. */
export const JOB_STATE_TABLE: { readonly [S in BulkJobState]: JobStateRow } = {
  // Prepared: its rows may still change. Sent for a team's approval, or confirmed.
  draft: { next: ['awaiting_approval', 'running'], confirmed: false, final: false },
  // Sent for another member's approval; its rows are fixed. Confirmed once approved; a single purchase's is cancelled when the team rejects it.
  awaiting_approval: { next: ['running', 'cancelled'], confirmed: false, final: false },
  // Back to awaiting_approval: an approved single purchase whose run stopped before its item left.
  running: { next: ['paused', 'completed', 'cancelled', 'needs_attention', 'awaiting_approval'], confirmed: true, final: false },
  // needs_attention: the run of a job another process paused ended with items to check.
  paused: { next: ['running', 'completed', 'cancelled', 'needs_attention', 'awaiting_approval'], confirmed: true, final: false },
  // paused: items settled by hand are to be sent again.
  needs_attention: { next: ['running', 'paused', 'completed'], confirmed: true, final: false },
  completed: { next: [], confirmed: true, final: true },
  cancelled: { next: [], confirmed: true, final: true },
};

/** The states of `table` a record may move to `to` from (and `to` itself: staying put). */
export function statesLeadingTo<S extends string>(table: { readonly [K in S]: { next: readonly S[] } }, to: S): S[] {
  return (Object.keys(table) as S[]).filter((s) => s === to || table[s].next.includes(to));
}

/** Every move of `table` as `[from, to]` (staying put is none). */
export function movesOf<S extends string>(table: { readonly [K in S]: { next: readonly S[] } }): [S, S][] {
  return (Object.keys(table) as S[]).flatMap((from) => table[from].next.map((to): [S, S] => [from, to]));
}

/** A named move: the states it comes from, and those it goes to. */
export interface NamedMove<S extends string> {
  from: readonly S[];
  to: readonly S[];
}

/** The moves of `moves` (by name) that `table` does not hold, as "name: from → to"; staying put is always held. */
export function movesOutside<S extends string>(table: { readonly [K in S]: { next: readonly S[] } }, moves: Record<string, NamedMove<S>>): string[] {
  return Object.entries(moves).flatMap(([name, m]) =>
    m.from.flatMap((from) => m.to.filter((to) => from !== to && !table[from].next.includes(to)).map((to) => `${name}: ${from} → ${to}`)),
  );
}

/**
 * The SQL guard of each move of `moves`, `state IN (…)` of the states it comes from, by its name
 * (a record to look up, not a function to call, on the paths that write); throws (so the module
 * that names the moves does not load) when one is not in `table`.
 */
export function guardsOf<S extends string, M extends Record<string, NamedMove<S>>>(
  table: { readonly [K in S]: { next: readonly S[] } },
  moves: M,
  what: string,
): Record<keyof M, string> {
  const outside = movesOutside(table, moves);
  if (outside.length > 0) throw new Error(`${what} moves not in the state table (src/shared/bulkStateTables.ts): ${outside.join('; ')}`);
  return Object.fromEntries(Object.entries(moves).map(([name, m]) => [name, stateIn(m.from)])) as Record<keyof M, string>;
}

/** `state IN ('a', 'b')`. */
export function stateIn(states: readonly string[]): string {
  return `state IN (${states.map((s) => `'${s}'`).join(', ')})`;
}

/** The states each table knows, in the contract's order. */
export const ITEM_STATES: readonly BulkItemState[] = BULK_ITEM_STATES;
export const JOB_STATES: readonly BulkJobState[] = BULK_JOB_STATES;
