/**
 * What vendesk itself sent, for one connection profile and time range: bulk job items
 * (migration 003) and single electricity/cable purchases (migration 006). Read straight from
 * their tables, never changed here.
 *
 * Each thing sent is one submission, named `bulk:<job>/<row>` (the row of the job's spreadsheet)
 * or `purchase:<id>`. A bulk electricity or cable row is bought through a purchase of its own
 * (`bulk_items.purchase_id`, migration 007); it is the bulk row, with its purchase's refund state,
 * never a second submission.
 */
import { createHash } from 'node:crypto';
import type { Db } from '../store/database';
import type { LocalSubmission } from './categorizeEntries';
import type { MessagingCharge } from './walletRollForward';

function tableExists(db: Db, name: string): boolean {
  return db.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?").get(name) !== undefined;
}

interface BulkRow {
  job_id: string;
  row_number: number;
  kind: string;
  phone: string;
  amount_kobo: number;
  product_code: string;
  reference: string | null;
  state: string;
  sent_ms: number;
  refund_state: string | null;
  local_sent_ms: number | null;
  local_answered_ms: number | null;
}

interface PurchaseRow {
  id: string;
  kind: string;
  phone: string;
  amount_kobo: number;
  provider_code: string;
  bouquet_code: string;
  reference: string | null;
  state: string;
  at_ms: number;
  refund_state: string;
  local_sent_ms: number | null;
  local_answered_ms: number | null;
}

/** The log's type for a bulk job's or a purchase's kind. */
function logType(kind: string): string {
  return kind === 'cable' ? 'CABLETV' : kind.toUpperCase();
}

/** Bulk rows and single top-ups; a single electricity or cable purchase is its purchase (below), not its one-item job. */
const BULK_SELECT = `SELECT i.job_id, i.row_number, j.kind, i.phone, i.amount_kobo, i.product_code, i.reference, i.state, i.sent_ms, p.refund_state,
       p.local_sent_ms, p.local_answered_ms
   FROM bulk_items i JOIN bulk_jobs j ON j.id = i.job_id LEFT JOIN purchases p ON p.id = i.purchase_id
   WHERE NOT (j.origin = 'single' AND i.purchase_id IS NOT NULL)`;

const PURCHASE_SELECT = `SELECT id, kind, phone, amount_kobo, provider_code, bouquet_code, reference, state, coalesce(sent_ms, purchased_ms) AS at_ms, refund_state,
       local_sent_ms, local_answered_ms
   FROM purchases p`;

/** Not bought as a row of a bulk job (that row stands for it). */
const NOT_A_BULK_ROW = "NOT EXISTS (SELECT 1 FROM bulk_items b JOIN bulk_jobs j ON j.id = b.job_id WHERE b.purchase_id = p.id AND j.origin = 'file')";

function fromBulk(r: BulkRow): LocalSubmission {
  return {
    localRef: `bulk:${r.job_id}/${r.row_number}`,
    reference: r.reference,
    phone: r.phone,
    amountKobo: r.amount_kobo,
    type: logType(r.kind),
    product: r.product_code,
    state: r.state,
    sentMs: r.sent_ms,
    refundMissing: r.refund_state === 'missing',
    localSentMs: r.local_sent_ms,
    localAnsweredMs: r.local_answered_ms,
  };
}

function fromPurchase(r: PurchaseRow): LocalSubmission {
  return {
    localRef: `purchase:${r.id}`,
    reference: r.reference,
    phone: r.phone,
    amountKobo: r.amount_kobo,
    type: logType(r.kind),
    product: r.bouquet_code || r.provider_code,
    state: r.state,
    sentMs: r.at_ms,
    refundMissing: r.refund_state === 'missing',
    localSentMs: r.local_sent_ms,
    localAnsweredMs: r.local_answered_ms,
  };
}

function tablesOf(db: Db): { bulk: boolean; purchases: boolean } {
  return { bulk: tableExists(db, 'bulk_items'), purchases: tableExists(db, 'purchases') };
}

/** Items sent in [fromMs, toMs). */
export function readLocalSubmissions(db: Db, profileId: string, fromMs: number, toMs: number): { submissions: LocalSubmission[]; hash: string } {
  const out: LocalSubmission[] = [];
  const tables = tablesOf(db);
  if (tables.bulk && tables.purchases) {
    const rows = db
      .prepare(`${BULK_SELECT} AND j.profile_id = ? AND i.sent_ms IS NOT NULL AND i.sent_ms >= ? AND i.sent_ms < ? ORDER BY i.sent_ms`)
      .all(profileId, fromMs, toMs) as BulkRow[];
    for (const r of rows) out.push(fromBulk(r));
  }
  if (tables.purchases) {
    const rows = db
      .prepare(
        `${PURCHASE_SELECT}
          WHERE profile_id = ? AND coalesce(sent_ms, purchased_ms) IS NOT NULL AND coalesce(sent_ms, purchased_ms) >= ? AND coalesce(sent_ms, purchased_ms) < ?
            ${tables.bulk ? `AND ${NOT_A_BULK_ROW}` : ''}
          ORDER BY at_ms`,
      )
      .all(profileId, fromMs, toMs) as PurchaseRow[];
    for (const r of rows) out.push(fromPurchase(r));
  }
  const hash = createHash('sha256')
    .update(out.map((s) => `${s.localRef}|${s.reference ?? ''}|${s.amountKobo}|${s.state}`).join('\n'))
    .digest('hex');
  return { submissions: out, hash };
}

/**
 * vendesk's record, as it stands now, of each of `references` (the log's transaction_id) that it
 * sent on this profile: for listing matched pairs, which a run keeps only as pairs.
 */
export function localSubmissionsByReference(db: Db, profileId: string, references: readonly string[]): Map<string, LocalSubmission> {
  const out = new Map<string, LocalSubmission>();
  const tables = tablesOf(db);
  if (references.length === 0 || !tables.purchases) return out;
  const bulk = tables.bulk ? db.prepare(`${BULK_SELECT} AND j.profile_id = ? AND i.reference = ?`) : null;
  const purchase = db.prepare(`${PURCHASE_SELECT} WHERE profile_id = ? AND reference = ? ${tables.bulk ? `AND ${NOT_A_BULK_ROW}` : ''}`);
  for (const reference of references) {
    if (!reference || out.has(reference)) continue;
    const b = bulk?.get(profileId, reference) as BulkRow | undefined;
    const p = b ? undefined : (purchase.get(profileId, reference) as PurchaseRow | undefined);
    if (b) out.set(reference, fromBulk(b));
    else if (p) out.set(reference, fromPurchase(p));
  }
  return out;
}

/**
 * vendesk's own messaging charges of one connection that may touch [fromMs, toMs) on the service's
 * clock: sent ones at what the service said it charged (else what was quoted — `asQuoted`, also
 * when a success answer did not say), and sends whose answer was lost as uncertain. Refused sends
 * charged nothing and are left out.
 */
export function readMessagingCharges(db: Db, profileId: string, fromMs: number, toMs: number): MessagingCharge[] {
  const rows = db
    .prepare(
      `SELECT state, coalesce(charged_kobo, quoted_kobo) AS kobo, charged_kobo IS NULL OR charge_source = 'quoted' AS as_quoted, created_at, finished_at, service_from_ms, service_to_ms
         FROM messaging_sends
        WHERE service_key = ? AND state IN ('sent', 'uncertain', 'sending')`,
    )
    .all(profileId) as {
    state: string;
    kobo: number;
    as_quoted: number;
    created_at: string;
    finished_at: string | null;
    service_from_ms: number | null;
    service_to_ms: number | null;
  }[];
  const out: MessagingCharge[] = [];
  for (const r of rows) {
    const localFromMs = Date.parse(r.created_at);
    const localToMs = r.finished_at ? Date.parse(r.finished_at) : localFromMs + 60_000;
    // Sends recorded before service times were kept: placed by this computer's clock.
    const from = r.service_from_ms ?? localFromMs;
    const to = r.service_to_ms ?? localToMs;
    if (r.kobo <= 0 || to < fromMs || from >= toMs) continue;
    out.push({ kobo: r.kobo, fromMs: from, toMs: to, uncertain: r.state !== 'sent', asQuoted: r.as_quoted === 1, localFromMs, localToMs });
  }
  return out;
}
