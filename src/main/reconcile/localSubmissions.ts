/**
 * What vendesk itself sent, for one connection profile and time range: bulk job items
 * (migration 003) and single electricity/cable purchases (migration 006). Read straight from
 * their tables, never changed here.
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
  seq: number;
  kind: string;
  phone: string;
  amount_kobo: number;
  product_code: string;
  reference: string | null;
  state: string;
  sent_ms: number;
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

/** Items sent in [fromMs, toMs). */
export function readLocalSubmissions(db: Db, profileId: string, fromMs: number, toMs: number): { submissions: LocalSubmission[]; hash: string } {
  const out: LocalSubmission[] = [];
  if (tableExists(db, 'bulk_items')) {
    const rows = db
      .prepare(
        `SELECT i.job_id, i.seq, j.kind, i.phone, i.amount_kobo, i.product_code, i.reference, i.state, i.sent_ms
           FROM bulk_items i JOIN bulk_jobs j ON j.id = i.job_id
          WHERE j.profile_id = ? AND i.sent_ms IS NOT NULL AND i.sent_ms >= ? AND i.sent_ms < ?
          ORDER BY i.sent_ms`,
      )
      .all(profileId, fromMs, toMs) as BulkRow[];
    for (const r of rows) {
      out.push({
        localRef: `bulk:${r.job_id}/${r.seq}`,
        reference: r.reference,
        phone: r.phone,
        amountKobo: r.amount_kobo,
        type: r.kind.toUpperCase(),
        product: r.product_code,
        state: r.state,
        sentMs: r.sent_ms,
        refundMissing: false,
      });
    }
  }
  if (tableExists(db, 'purchases')) {
    const rows = db
      .prepare(
        `SELECT id, kind, phone, amount_kobo, provider_code, bouquet_code, reference, state, coalesce(sent_ms, purchased_ms) AS at_ms, refund_state,
                local_sent_ms, local_answered_ms
           FROM purchases
          WHERE profile_id = ? AND coalesce(sent_ms, purchased_ms) IS NOT NULL AND coalesce(sent_ms, purchased_ms) >= ? AND coalesce(sent_ms, purchased_ms) < ?
          ORDER BY at_ms`,
      )
      .all(profileId, fromMs, toMs) as PurchaseRow[];
    for (const r of rows) {
      out.push({
        localRef: `purchase:${r.id}`,
        reference: r.reference,
        phone: r.phone,
        amountKobo: r.amount_kobo,
        type: r.kind === 'cable' ? 'CABLETV' : 'ELECTRICITY',
        product: r.bouquet_code || r.provider_code,
        state: r.state,
        sentMs: r.at_ms,
        refundMissing: r.refund_state === 'missing',
        localSentMs: r.local_sent_ms,
        localAnsweredMs: r.local_answered_ms,
      });
    }
  }
  const hash = createHash('sha256')
    .update(out.map((s) => `${s.localRef}|${s.reference ?? ''}|${s.amountKobo}|${s.state}`).join('\n'))
    .digest('hex');
  return { submissions: out, hash };
}

/**
 * vendesk's own messaging charges of one connection that may touch [fromMs, toMs) on the service's
 * clock: sent ones at what the service said it charged (else what was quoted), and sends whose
 * answer was lost as uncertain. Refused sends charged nothing and are left out.
 */
export function readMessagingCharges(db: Db, profileId: string, fromMs: number, toMs: number): MessagingCharge[] {
  const rows = db
    .prepare(
      `SELECT state, coalesce(charged_kobo, quoted_kobo) AS kobo, created_at, finished_at, service_from_ms, service_to_ms
         FROM messaging_sends
        WHERE service_key = ? AND state IN ('sent', 'uncertain', 'sending')`,
    )
    .all(profileId) as { state: string; kobo: number; created_at: string; finished_at: string | null; service_from_ms: number | null; service_to_ms: number | null }[];
  const out: MessagingCharge[] = [];
  for (const r of rows) {
    const localFromMs = Date.parse(r.created_at);
    const localToMs = r.finished_at ? Date.parse(r.finished_at) : localFromMs + 60_000;
    // Sends recorded before service times were kept: placed by this computer's clock.
    const from = r.service_from_ms ?? localFromMs;
    const to = r.service_to_ms ?? localToMs;
    if (r.kobo <= 0 || to < fromMs || from >= toMs) continue;
    out.push({ kobo: r.kobo, fromMs: from, toMs: to, uncertain: r.state !== 'sent', localFromMs, localToMs });
  }
  return out;
}
