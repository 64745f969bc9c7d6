/**
 * How a bulk job and its items are shown: the figures of each state (counts, face value, wallet
 * cost) as the windows, the CLI and the exports read them, and why a draft cannot be confirmed
 * yet when a required column was not found.
 */
import type { BulkItemView, BulkJobView, BulkMoney } from '../../shared/contract/bulk';
import { addMoney } from '../../shared/bulkMoney';
import { fieldLabel, missingFields, type ColumnMapping } from '../imports';
import { doneCount, totalCount } from './jobRunner';
import type { BulkJobKind, ItemState } from './jobStates';
import { BOUGHT_STATES, ITEM_STATES, MAYBE_BOUGHT_STATES } from './jobStates';
import type { JobReads } from './jobReads';
import type { ItemRow, JobRow } from './jobRows';

/** A job as shown; `running`: whether a runner sends it, here (`active`) or in another vendesk. */
export function jobView(reads: JobReads, job: JobRow, running: { active: boolean; heldElsewhere: boolean; teamJobId: string | null }): BulkJobView {
  const figures = reads.figures(job.id);
  const counts = {} as Record<ItemState, number>;
  for (const s of ITEM_STATES) counts[s] = figures[s].count;
  const money = (...states: ItemState[]): BulkMoney => addMoney(...states.map((s) => figures[s]));
  const { active, heldElsewhere } = running;
  const total = totalCount(counts);
  let totalKobo = 0;
  for (const s of ITEM_STATES) if (s !== 'excluded') totalKobo += figures[s].faceKobo;
  return {
    id: job.id,
    kind: job.kind,
    state: job.state,
    active: active || heldElsewhere,
    interrupted: job.state === 'running' && !active && !heldElsewhere,
    fileName: job.file_name,
    sheetName: job.sheet_name,
    connectionKind: job.connection_kind,
    profileId: job.profile_id,
    createdAt: job.created_at,
    confirmedAt: job.confirmed_at,
    finishedAt: job.finished_at,
    message:
      job.state === 'running' && !active && !heldElsewhere
        ? 'vendesk stopped while this job was running. Resume it: items that may have been sent are checked against the service log first, so nothing is bought twice.'
        : job.message,
    rowsInFile: job.rows_total,
    invalidRows: job.invalid_count,
    counts,
    items: total,
    done: doneCount(counts),
    totalKobo,
    bought: money(...BOUGHT_STATES),
    refunded: money('failed'),
    notBought: money('cancelled'),
    maybeBought: money(...MAYBE_BOUGHT_STATES),
    toSend: money('queued', 'held'),
    teamJobId: running.teamJobId,
  };
}

export function unmappedBlocker(kind: BulkJobKind, mapping: ColumnMapping): string | null {
  const missing = missingFields(mapping, kind).map((f) => fieldLabel(f));
  if (missing.length === 0) return null;
  return `vendesk could not tell which column holds ${missing.join(' and ')}. Choose it under "Columns used" and apply; the rows are then checked.`;
}

export function itemView(i: ItemRow): BulkItemView {
  return {
    seq: i.seq,
    row: i.row_number,
    phone: i.phone,
    network: i.network,
    productCode: i.product_code,
    description: i.description,
    amountKobo: i.amount_kobo,
    name: i.name,
    note: i.note,
    state: i.state,
    reference: i.reference,
    reason: i.reason,
    settledBy: i.settled_by,
    attempts: i.attempts,
    duplicateOf: i.duplicate_of,
    givenNetwork: i.given_network,
    prefixNetwork: i.prefix_network,
    updatedAt: i.updated_at,
    account: i.account ?? null,
    vendType: i.vend_type ?? null,
    accountName: i.account_name ?? null,
    purchaseId: i.purchase_id ?? null,
    token: i.token ?? null,
    units: i.units ?? null,
  };
}
