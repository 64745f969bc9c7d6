/**
 * What the wallet is expected to be charged for a purchase before it is made: its face value less
 * the commission the service has been giving for that product — the rate of the last 30 days of
 * successful purchases in the mirror of the connection (same type and network, else the same
 * type), or the catalog's commission rate (electricity and cable) where the log has none. It is an
 * estimate, and shown as one beside the face value; with no rate known the face value is the
 * estimate, and it says so. What was really charged is the log's `transaction_cost`.
 */
import type { MirrorType } from '../../shared/contract/logs';
import { DAY_MS } from '../../shared/localDates';
import type { ReadableDB } from '../store/readableDb';
import { logNetworkName } from './logQuery';

export type ProductKind = 'airtime' | 'data' | 'electricity' | 'cable';

const TYPE_OF: Record<ProductKind, MirrorType> = { airtime: 'AIRTIME', data: 'DATA', electricity: 'ELECTRICITY', cable: 'CABLETV' };

/** Days of history the rates are learnt from. */
const RATE_DAYS = 30;

export interface CommissionRates {
  /** The commission rate (0.03 = 3 %) of a product, or null when neither the log nor the catalog gives one. */
  rateOf(kind: ProductKind, network: string, catalogPercentage?: number | null): number | null;
}

/** The commission rates the recent log shows, by type and network. */
export function commissionRates(db: ReadableDB, profileId: string, nowMs: number = Date.now()): CommissionRates {
  const rows = db
    .prepare(
      `SELECT type, network, SUM(amount_kobo) AS face, SUM(commission_kobo) AS commission FROM log_entries
        WHERE profile_id = ? AND created_at >= ? AND status = 'SUCCESS' GROUP BY type, network`,
    )
    .all(profileId, new Date(nowMs - RATE_DAYS * DAY_MS).toISOString()) as { type: string; network: string; face: number; commission: number }[];
  const byNetwork = new Map<string, number>();
  const byType = new Map<string, { face: number; commission: number }>();
  for (const r of rows) {
    if (r.face > 0) byNetwork.set(`${r.type}|${r.network.toUpperCase()}`, r.commission / r.face);
    const t = byType.get(r.type) ?? { face: 0, commission: 0 };
    byType.set(r.type, { face: t.face + r.face, commission: t.commission + r.commission });
  }
  return {
    rateOf(kind, network, catalogPercentage) {
      const type = TYPE_OF[kind];
      const exact = byNetwork.get(`${type}|${logNetworkName(network)}`);
      if (exact !== undefined) return exact;
      if (catalogPercentage !== undefined && catalogPercentage !== null && Number.isFinite(catalogPercentage) && catalogPercentage > 0) return catalogPercentage / 100;
      const t = byType.get(type);
      return t && t.face > 0 ? t.commission / t.face : null;
    },
  };
}

export interface ExpectedCost {
  faceKobo: number;
  /** Face value less the expected commission. */
  costKobo: number;
  /** Whether a commission rate was known for every part (else the face value stands in for the cost of the rest). */
  rateKnown: boolean;
}

/** The expected wallet cost of purchases grouped by network (`faceKobo` per network). */
export function expectedCost(rates: CommissionRates, kind: ProductKind, parts: readonly { network: string; faceKobo: number; catalogPercentage?: number | null }[]): ExpectedCost {
  let faceKobo = 0;
  let costKobo = 0;
  let rateKnown = true;
  for (const p of parts) {
    const rate = rates.rateOf(kind, p.network, p.catalogPercentage);
    if (rate === null) rateKnown = false;
    faceKobo += p.faceKobo;
    costKobo += p.faceKobo - Math.round(p.faceKobo * (rate ?? 0));
  }
  return { faceKobo, costKobo, rateKnown };
}
