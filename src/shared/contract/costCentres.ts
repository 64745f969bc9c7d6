/**
 * Cost centres (docs/cost-centres.md): importing the recipients list, and changing a purchase's
 * cost centre after it was bought (recorded: who, when, from what).
 */
import { z } from 'zod';
import { op } from './define';
import { fileRefSchema } from './files';
import { costCentreField } from './purchases';

export interface RecipientsImportView {
  file: string;
  rows: number;
  phones: number;
  meters: number;
  smartcards: number;
  replaced: number;
}

export interface CostCentreChangeView {
  reference: string | null;
  jobId: string;
  seq: number;
  from: string | null;
  to: string | null;
  actor: string;
  actorKind: 'desktop' | 'team';
  /** UTC ISO, on the service's clock. */
  changedAt: string;
}

/** A purchase's cost centre as the window's Change cost centre dialog shows it. */
export interface PurchaseCostCentreView {
  reference: string;
  /** The cost centre kept on the purchase (null: none given, so `chargedTo` comes from the recipients list or is Unassigned). */
  costCentre: string | null;
  /** What its spend is charged to now (the rule of docs/cost-centres.md). */
  chargedTo: string;
  /** vendesk bought it on this connection: only such a purchase's cost centre can be changed here. */
  vendeskPurchase: boolean;
  /** When the service logged it (UTC ISO), null when the log has not been read yet; its month (Lagos days). */
  createdAt: string | null;
  month: string | null;
  /** Its month is closed: a change is counted as an adjustment in `adjustmentMonth`, the next open month. */
  monthClosed: boolean;
  adjustmentMonth: string | null;
  history: CostCentreChangeView[];
}

export const costCentresOperations = {
  'costCentres.importRecipients': op(
    z.object({ file: fileRefSchema }),
    'Imports the recipients list from a spreadsheet (phone, meter or smartcard → name and cost centre); a file with a bad row changes nothing',
    { invalidates: ['mirror'] },
  ).returns<RecipientsImportView>(),
  'costCentres.change': op(
    z.object({ reference: z.string().trim().min(1, 'Give the purchase’s transaction id'), costCentre: costCentreField }),
    "Changes a vendesk purchase's cost centre (by its transaction id) and records who changed it, when and from what",
    { invalidates: ['mirror', 'purchases', 'jobs'] },
  ).returns<CostCentreChangeView>(),
  'costCentres.purchase': op(
    z.object({ reference: z.string().trim().min(1, 'Give the purchase’s transaction id') }),
    "A purchase's cost centre: the one kept on it, what it is charged to, its month (and whether a change is an adjustment of the next open month) and its recorded changes",
  ).returns<PurchaseCostCentreView>(),
  'costCentres.inUse': op(z.object({}), 'The cost centres kept on purchases of this connection and in the recipients list, sorted').returns<string[]>(),
  'costCentres.history': op(z.object({ reference: z.string().trim().min(1) }), "The recorded changes of a purchase's cost centre, oldest first").returns<CostCentreChangeView[]>(),
} as const;
