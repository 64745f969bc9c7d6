/**
 * The record of every send that costs money (SMS, one-time codes) in `messaging_sends`: what the
 * wallet roll-forward counts as vendesk's own messaging.
 */
import type { MessageAnswer } from '../api/messagingAnswers';
import type { ServiceWindow } from '../api/serviceTime';
import { UncertainOutcomeError } from '../api/serviceErrors';
import type { CallOptions, VendingClient } from '../api/vendingClient';
import type { AppPart, Session } from '../appContext';
import { AppError } from '../../shared/appError';
import { formatNaira } from '../../shared/money';

/** The time now, as the messaging records and views write it. */
export const now = (): string => new Date().toISOString();

/** What the service charged for a paid send, or — when its answer does not say — the quote (`source: 'quoted'`). */
export interface Charge {
  reference: string | null;
  chargedKobo: number;
  source: 'service' | 'quoted';
  requestReference: string | null;
}

/**
 * The refusal of a send whose cost is no longer the one confirmed: `for` says what it is the cost
 * of ("250 recipient(s)", "12 message(s)"); `details` carries the new figures to confirm again.
 */
export function costChanged(nowKobo: number, confirmedKobo: number, costOf: string, details?: unknown): AppError {
  return new AppError(
    'cost_changed',
    `The cost is now ${formatNaira(nowKobo)} for ${costOf}, not the ${formatNaira(confirmedKobo)} you confirmed. Nothing was sent.`,
    'Review the new cost and confirm again.',
    details,
  );
}

/** What a sent message was charged: the service's figure, else the quote it was sent at. */
export function messageCharge(answer: MessageAnswer, quotedKobo: number): Charge {
  return {
    reference: answer.reference,
    chargedKobo: answer.totalKobo ?? quotedKobo,
    source: answer.totalKobo === null ? 'quoted' : 'service',
    requestReference: answer.requestReference || null,
  };
}

/**
 * A request that costs money: recorded (committed) before it leaves, with what it was quoted,
 * then with the service's answer — its reference, what it charged, and when on the service's
 * clock, so the wallet roll-forward can place the charge. When the answer does not say what it
 * charged, the quoted cost is recorded as the charge (`charge_source = 'quoted'`). A success
 * answer, whatever its shape, is "sent". Never repeated automatically: a send whose answer was
 * lost stays "uncertain". Sent on `session`, taken when the send was asked for: when vendesk was
 * switched to another connection while it was checked and quoted, nothing is sent
 * (`connection_changed`).
 */
export async function paidSend<T>(
  app: AppPart<'db'>,
  session: Session,
  send: { kind: 'sms' | 'otp'; senderId: string; target: string; templateId: string | null; body: string; recipients: number; emails: number; quotedKobo: number },
  call: (client: VendingClient, options: CallOptions) => Promise<T>,
  charged: (answer: T) => Charge,
): Promise<{ answer: T; charge: Charge }> {
  // Checked on `session`'s connection (the one in use when the send was asked for): sent there or not at all.
  session.refuseIfSwitched('message');
  const { connection } = session;
  const info = app.db
    .prepare(
      `INSERT INTO messaging_sends (service_key, kind, sender_id, target, template_id, body, recipients, emails, quoted_kobo, state, created_at)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, 'sending', ?)`,
    )
    .run(connection.profileId, send.kind, send.senderId, send.target, send.templateId, send.body, send.recipients, send.emails, send.quotedKobo, now());
  return sendRecorded(app, session, Number(info.lastInsertRowid), call, charged);
}

/**
 * Sends the request of a paid send already committed `sending` (row `id`), and records the
 * service's answer on it: `sent` with what it charged, `failed` when the service refused it
 * (nothing was charged), `uncertain` when the answer was lost (never repeated automatically).
 * Rethrows the call's error after recording it.
 */
export async function sendRecorded<T>(
  app: AppPart<'db'>,
  session: Session,
  id: number,
  call: (client: VendingClient, options: CallOptions) => Promise<T>,
  charged: (answer: T) => Charge,
): Promise<{ answer: T; charge: Charge }> {
  const { client } = session;
  const startedLocal = Date.now();
  let answeredAt: ServiceWindow | null = null;
  const finish = app.db.prepare(
    `UPDATE messaging_sends SET state = ?, reference = ?, charged_kobo = ?, charge_source = ?, request_reference = ?, error = ?, finished_at = ?, service_from_ms = ?, service_to_ms = ?
     WHERE id = ?`,
  );
  let answer: T;
  try {
    answer = await call(client, { onAnswered: (w) => (answeredAt = w) });
  } catch (error) {
    // Without an answer the charge may have happened any time until now.
    const at = answeredAt ?? client.clock.windowAt(startedLocal, Date.now());
    finish.run(
      error instanceof UncertainOutcomeError ? 'uncertain' : 'failed',
      null,
      null,
      null,
      null,
      error instanceof Error ? error.message : String(error),
      now(),
      at.fromMs,
      at.toMs,
      id,
    );
    throw error;
  }
  const charge = charged(answer);
  const at = answeredAt ?? client.clock.windowAt(startedLocal, Date.now());
  finish.run('sent', charge.reference, charge.chargedKobo, charge.source, charge.requestReference, null, now(), at.fromMs, at.toMs, id);
  return { answer, charge };
}
