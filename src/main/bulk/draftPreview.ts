/**
 * The preview of a draft bulk job (what it would buy, against the wallet and the spending caps)
 * and why confirming it would be refused.
 */
import type { BulkJobView, BulkPreview, BulkSettingsView } from '../../shared/contract/bulk';
import { formatNaira, nairaToKobo } from '../../shared/money';
import { ngnWallet } from '../../shared/ngnWallet';
import type { AppPart } from '../appContext';
import type { ColumnMapping } from '../imports';
import { commissionRates, expectedCost } from '../transactions/expectedCost';
import { startOfLocalDay } from './bulkSettings';
import type { JobRow, JobStore } from './jobStore';
import { itemView, unmappedBlocker } from './jobViews';
import { mappingFields } from './prepareJob';

/** The catalog's commission rate (percent) of a disco or a cable bouquet, where it gives one. */
export type CatalogPercentage = (network: string, productCode: string) => number | undefined;

/** Flagged duplicates and network conflicts a preview lists at most. */
const PREVIEW_LIST_LIMIT = 5000;

/** The NGN wallet in kobo, or why it is not known. */
export async function readWalletKobo(app: AppPart<'client'>): Promise<{ kobo: number | null; problem: string | null }> {
  try {
    const ngn = ngnWallet(await app.client().accountBalance());
    return ngn ? { kobo: nairaToKobo(ngn.Balance), problem: null } : { kobo: null, problem: 'The service reported no NGN wallet.' };
  } catch (error) {
    return { kobo: null, problem: `The wallet balance could not be read (${error instanceof Error ? error.message : String(error)}).` };
  }
}

export function draftPreview(
  store: JobStore,
  job: JobRow,
  view: BulkJobView,
  settings: BulkSettingsView,
  wallet: { kobo: number | null; problem: string | null },
  extra: { sheetNames?: string[]; remembered?: boolean; catalogPercentage?: CatalogPercentage },
): BulkPreview {
  const walletKobo = wallet.kobo;
  const flagged = store.duplicateItems(job.id, PREVIEW_LIST_LIMIT);
  const conflicts = store.networkConflictItems(job.id, PREVIEW_LIST_LIMIT);
  const headers = JSON.parse(job.headers_json) as string[];
  const mapping = JSON.parse(job.mapping_json) as ColumnMapping;
  const includedKobo = view.totalKobo;
  // The wallet is charged the face value less commission: what it will hold after is estimated from that.
  const parts = store.includedFaceByNetwork(job.id).map((p) => ({ ...p, catalogPercentage: extra.catalogPercentage?.(p.network, p.productCode) }));
  const expected = expectedCost(commissionRates(store.db, job.profile_id), job.kind, parts);
  const spentToday = store.spentSince(job.profile_id, startOfLocalDay());
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
    spentTodayKobo: spentToday,
    blocker:
      job.state === 'draft'
        ? (unmappedBlocker(job.kind, mapping) ?? confirmBlocker(store, settings, job.profile_id, { totalKobo: includedKobo, items: view.items, walletKobo }))
        : null,
    live: job.connection_kind === 'live',
  };
}

/** Why confirming now would be refused; null when it may go ahead. */
export function confirmBlocker(
  store: JobStore,
  settings: BulkSettingsView,
  profileId: string,
  { totalKobo, items, walletKobo, maxTotalKobo }: { totalKobo: number; items: number; walletKobo: number | null; maxTotalKobo?: number },
): string | null {
  if (items === 0) return 'There is nothing to buy: every row is invalid or left out.';
  if (settings.capPerJobKobo !== null && totalKobo > settings.capPerJobKobo) {
    return `The job total ${formatNaira(totalKobo)} is above the spending cap per job of ${formatNaira(settings.capPerJobKobo)}. Split the file, or raise the cap per job (Purchases → Limits for bulk jobs).`;
  }
  if (settings.capPerDayKobo !== null) {
    const today = store.spentSince(profileId, startOfLocalDay());
    if (today + totalKobo > settings.capPerDayKobo) {
      return `This job (${formatNaira(totalKobo)}) would take today's bulk spending to ${formatNaira(today + totalKobo)}, above the daily cap of ${formatNaira(settings.capPerDayKobo)}. Buy fewer rows today, or raise the daily cap (Purchases → Limits for bulk jobs).`;
    }
  }
  if (maxTotalKobo !== undefined && totalKobo > maxTotalKobo) {
    return `The job total ${formatNaira(totalKobo)} is above the maximum you allowed (${formatNaira(maxTotalKobo)}).`;
  }
  if (walletKobo !== null && walletKobo < totalKobo) {
    return `The wallet holds ${formatNaira(walletKobo)}, less than the job total of ${formatNaira(totalKobo)}. Top up the wallet or leave rows out.`;
  }
  return null;
}
