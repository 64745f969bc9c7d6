/**
 * What vendesk's own messaging took from the wallet over a range: every paid send (SMS with its
 * e-mail copies, one-time codes) from its record (`messaging_sends`, paidSends.ts), at what the
 * service said it charged, else the quoted cost it recorded as the charge (`asQuoted`). A send whose
 * answer was lost may or may not have been charged: it is stated apart, never summed. Refused sends
 * charged nothing. The service lists no charges of messages (its log holds purchases only), so
 * messages sent outside vendesk are not known here; the spend screens say so.
 *
 * Each send is placed on the service's clock — when its answer came, by the answer's `Date` header
 * (`service_from_ms`), as the log's purchases are — so a Lagos day is the same day for both; a
 * send recorded before those times were kept falls back to this computer's clock.
 */
import type { MessagingSpend } from '../../shared/contract/dashboard';
import type { ReadableDB } from '../store/readableDb';

/** When a send was charged on the service's clock, epoch ms (this computer's clock for sends recorded before service times were kept). */
const AT_MS = 'coalesce(service_from_ms, CAST(round((julianday(created_at) - 2440587.5) * 86400000) AS INTEGER))';

/** vendesk's messaging charges of one connection from `fromIso` (inclusive) to `untilIso` (exclusive; open when null), both on the service's clock. */
export function messagingSpend(db: ReadableDB, profileId: string, fromIso: string, untilIso: string | null = null): MessagingSpend {
  const rows = db
    .prepare(
      `SELECT kind, state = 'sent' AS charged, count(*) AS sends, COALESCE(sum(recipients), 0) AS messages,
              COALESCE(sum(coalesce(charged_kobo, quoted_kobo)), 0) AS kobo,
              COALESCE(sum(state = 'sent' AND (charged_kobo IS NULL OR charge_source = 'quoted')), 0) AS quoted
         FROM messaging_sends
        WHERE service_key = ? AND state IN ('sent', 'uncertain', 'sending') AND ${AT_MS} >= ? AND ${AT_MS} < ?
        GROUP BY kind, charged`,
    )
    .all(profileId, Date.parse(fromIso), untilIso === null ? Number.MAX_SAFE_INTEGER : Date.parse(untilIso)) as {
    kind: 'sms' | 'otp';
    charged: number;
    sends: number;
    messages: number;
    kobo: number;
    quoted: number;
  }[];
  const out: MessagingSpend = {
    sends: 0,
    messages: 0,
    costKobo: 0,
    sms: { sends: 0, messages: 0, costKobo: 0 },
    codes: { sends: 0, messages: 0, costKobo: 0 },
    asQuoted: 0,
    uncertain: { sends: 0, quotedKobo: 0 },
  };
  for (const r of rows) {
    if (r.charged !== 1) {
      out.uncertain.sends += r.sends;
      out.uncertain.quotedKobo += r.kobo;
      continue;
    }
    const part = r.kind === 'otp' ? out.codes : out.sms;
    part.sends += r.sends;
    part.messages += r.messages;
    part.costKobo += r.kobo;
    out.sends += r.sends;
    out.messages += r.messages;
    out.costKobo += r.kobo;
    out.asQuoted += r.quoted;
  }
  return out;
}
