/**
 * The findings of a reconciliation as items: what vendesk sent (`LocalSubmission`), and the item
 * of each export row and/or mirror entry, or of a submission neither side knows, with the
 * sentence that says what it means and what to do.
 */
import type { ReconcileCategory, ReconcileItemView } from '../../shared/contract/reconcile';
import { formatNaira } from '../../shared/money';
import { STATUS_NAMES, txIdAt, type EntryDetail, type LogColumns } from './logColumns';
import { RULE_NAMES } from './matchEntries';

/** Something vendesk sent: a bulk job item or a single electricity/cable purchase. */
export interface LocalSubmission {
  /** `bulk:<jobId>/<seq>` or `purchase:<id>`. */
  localRef: string;
  /** The service's reference for it (the log's transaction_id), when known. */
  reference: string | null;
  phone: string;
  amountKobo: number;
  /** AIRTIME, DATA, ELECTRICITY or CABLETV. */
  type: string;
  product: string;
  state: string;
  /** When it was sent, epoch ms. */
  sentMs: number;
  /** vendesk itself saw that its refund did not arrive (single purchases). */
  refundMissing: boolean;
  /** When its request left and its answer arrived on this computer's clock, when known. */
  localSentMs?: number | null;
  localAnsweredMs?: number | null;
}

export type ItemDraft = Omit<ReconcileItemView, 'seq' | 'resolvedAt' | 'resolutionNote' | 'requeryStatus' | 'requeryAt'>;

function orNull(n: number): number | null {
  return Number.isNaN(n) ? null : n;
}

function statusName(code: number): string | null {
  return STATUS_NAMES[code] || null;
}

function describe(
  category: ReconcileCategory,
  expDetail: EntryDetail | null,
  exp: LogColumns | null,
  e: number,
  mir: LogColumns | null,
  m: number,
  refundKobo: number | null,
): string {
  switch (category) {
    case 'missingLocally':
      return 'The vendor charged this but the local mirror does not have it. Sync the mirror (Transactions → Sync) and reconcile again; if it is still missing, ask the vendor for the transaction details.';
    case 'missingInExport':
      return 'The local mirror has this entry but the vendor export does not. Check that the export covers the whole range and every status; otherwise ask the vendor why it is left out.';
    case 'amountMismatch': {
      const parts: string[] = [];
      if (exp && mir && exp.amountKobo[e] !== mir.amountKobo[m]) parts.push(`amount ${formatNaira(exp.amountKobo[e])} in the export, ${formatNaira(mir.amountKobo[m])} locally`);
      if (exp && mir && !Number.isNaN(exp.costKobo[e]) && exp.costKobo[e] !== mir.costKobo[m])
        parts.push(`cost ${formatNaira(exp.costKobo[e])} in the export, ${formatNaira(mir.costKobo[m])} locally`);
      return `The vendor charged a different figure: ${parts.join('; ')}. Raise it with the vendor with the transaction id.`;
    }
    case 'statusMismatch':
      return `The export says ${statusName(exp?.status[e] ?? 0) ?? '?'} but the mirror says ${statusName(mir?.status[m] ?? 0) ?? '?'}. Sync the mirror; if they still differ, ask the vendor which is right and whether the wallet was charged or refunded.`;
    case 'pending':
      return 'Not final yet. Use "Requery all pending" to ask the service for the outcome; sync and reconcile again once it is final.';
    case 'duplicateCharges':
      return `Charged more than once for ${expDetail?.phone ?? 'this number'} with the same amount within minutes, where vendesk asked once. Ask the vendor to reverse the extra charge.`;
    case 'missingRefunds':
      return `This purchase failed, but its refund${refundKobo !== null ? ` of ${formatNaira(refundKobo)}` : ''} never showed in the wallet balance. Ask the vendor to refund it, quoting the transaction id.`;
    default:
      return '';
  }
}

/** An item of an export row and/or a mirror entry; `sent` is vendesk's own record of it, when it sent it. */
export function pairItem(
  category: ReconcileCategory,
  exp: LogColumns | null,
  e: number,
  mir: LogColumns | null,
  m: number,
  rule: number,
  refundKobo: number | null,
  sent: LocalSubmission | null,
): ItemDraft {
  const ed = exp ? exp.detail(e) : null;
  const md = mir ? mir.detail(m) : null;
  const d = (ed ?? md) as EntryDetail;
  const amount = exp ? exp.amountKobo[e] : (mir as LogColumns).amountKobo[m];
  return {
    category,
    rule: RULE_NAMES[rule] ?? null,
    exportRow: ed?.rowNumber ?? null,
    transactionId: (exp ? txIdAt(exp, e) : '') || (mir ? txIdAt(mir, m) : ''),
    logId: (exp ? orNull(exp.logId[e]) : null) ?? (mir ? orNull(mir.logId[m]) : null),
    phone: d.phone,
    type: d.type,
    product: d.product,
    network: d.network,
    createdAt: d.createdAt,
    exportAmountKobo: exp ? exp.amountKobo[e] : null,
    mirrorAmountKobo: mir ? mir.amountKobo[m] : null,
    exportCostKobo: exp ? orNull(exp.costKobo[e]) : null,
    mirrorCostKobo: mir ? orNull(mir.costKobo[m]) : null,
    exportStatus: exp ? statusName(exp.status[e]) : null,
    mirrorStatus: mir ? statusName(mir.status[m]) : null,
    localRef: sent?.localRef ?? null,
    localState: sent?.state ?? null,
    amountKobo: amount,
    detail: describe(category, ed ?? md, exp, e, mir, m, refundKobo),
  };
}

export function localItem(category: 'lostSubmissions' | 'missingRefunds', l: LocalSubmission): ItemDraft {
  return {
    category,
    rule: null,
    exportRow: null,
    transactionId: l.reference ?? '',
    logId: null,
    phone: l.phone,
    type: l.type,
    product: l.product,
    network: '',
    createdAt: new Date(l.sentMs).toISOString(),
    exportAmountKobo: null,
    mirrorAmountKobo: null,
    exportCostKobo: null,
    mirrorCostKobo: null,
    exportStatus: null,
    mirrorStatus: null,
    localRef: l.localRef,
    localState: l.state,
    amountKobo: l.amountKobo,
    detail:
      category === 'lostSubmissions'
        ? `vendesk sent this purchase (${l.state}) but neither the vendor export nor the mirror has it. Check the wallet was not charged; ask the vendor with the reference${l.reference ? ` ${l.reference}` : ' and the time it was sent'} before buying again.`
        : 'vendesk saw that the refund of this failed purchase did not reach the wallet, and the vendor log does not list it. Ask the vendor to refund it.',
  };
}
