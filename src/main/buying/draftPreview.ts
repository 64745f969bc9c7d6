/**
 * The preview of a draft bulk job (what it would buy, against the wallet and the spending caps)
 * and why confirming it would be refused.
 */
import type { BulkJobView, BulkPreview, BulkSettingsView } from '../../shared/contract/bulk';
import type { ColumnMapping } from '../imports';
import { commissionRates, expectedCost } from '../transactions/expectedCost';
import { confirmBlocker, spentToday } from './bulkSettings';
import type { JobReads } from './jobReads';
import type { JobRow } from './jobRows';
import { itemView, unmappedBlocker } from './jobViews';
import { mappingFields } from './prepareJob';
import { isUnconfirmed } from './jobStates';

/** The catalog's commission rate (percent) of a disco or a cable bouquet, where it gives one. */
export type CatalogPercentage = (network: string, productCode: string) => number | undefined;

/** Flagged duplicates and network conflicts a preview lists at most. */
const PREVIEW_LIST_LIMIT = 5000;

export function draftPreview(
  reads: JobReads,
  job: JobRow,
  view: BulkJobView,
  settings: BulkSettingsView,
  wallet: { kobo: number | null; problem: string | null },
  extra: { sheetNames?: string[]; remembered?: boolean; catalogPercentage?: CatalogPercentage; serviceNowMs: number },
): BulkPreview {
  const walletKobo = wallet.kobo;
  const flagged = reads.duplicateItems(job.id, PREVIEW_LIST_LIMIT);
  const conflicts = reads.networkConflictItems(job.id, PREVIEW_LIST_LIMIT);
  const headers = JSON.parse(job.headers_json) as string[];
  const mapping = JSON.parse(job.mapping_json) as ColumnMapping;
  const includedKobo = view.totalKobo;
  // The wallet is charged the face value less commission: what it will hold after is estimated from that.
  const parts = reads.includedFaceByNetwork(job.id).map((p) => ({ ...p, catalogPercentage: extra.catalogPercentage?.(p.network, p.productCode) }));
  const expected = expectedCost(commissionRates(reads.db, job.profile_id), job.kind, parts);
  const today = spentToday(reads, job.profile_id, extra.serviceNowMs);
  return {
    job: view,
    headers,
    sheetNames: extra.sheetNames ?? (job.sheet_name ? [job.sheet_name] : []),
    mapping: mappingFields(job.kind, mapping),
    mappingRemembered: extra.remembered ?? false,
    includedItems: view.items,
    includedKobo,
    walletKobo,
    expectedCostKobo: expected.costKobo,
    expectedCostNote: expected.rateKnown
      ? 'Estimate: face value less the commission these products earned in the last 30 days.'
      : 'Estimate: no commission known yet for some of these products, so their face value is counted in full.',
    remainingKobo: walletKobo === null ? null : walletKobo - expected.costKobo,
    walletProblem: wallet.problem,
    duplicates: flagged.map(itemView),
    networkConflicts: conflicts.map(itemView),
    capPerJobKobo: settings.capPerJobKobo,
    capPerDayKobo: settings.capPerDayKobo,
    spentTodayKobo: today,
    blocker: isUnconfirmed(job.state)
      ? (unmappedBlocker(job.kind, mapping) ??
        confirmBlocker(reads, settings, job.profile_id, { totalKobo: includedKobo, items: view.items, walletKobo }, () => extra.serviceNowMs))
      : null,
    live: job.connection_kind === 'live',
  };
}
