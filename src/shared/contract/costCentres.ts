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
  'costCentres.history': op(z.object({ reference: z.string().trim().min(1) }), "The recorded changes of a purchase's cost centre, oldest first").returns<CostCentreChangeView[]>(),
} as const;
