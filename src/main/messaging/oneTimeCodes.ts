/**
 * One-time codes: sending one from an approved sender ID (a paid send, recorded like an SMS) and
 * confirming it by its reference, with every refusal of the service said in words a person acts on.
 */
import type { OtpConfirmedView, OtpSentView } from '../../shared/contract/messaging';
import { AppError } from '../../shared/appError';
import { otpCostEstimate } from '../../shared/messagingCost';
import { ServiceError } from '../api/serviceErrors';
import type { AppPart } from '../appContext';
import { createMessagingService } from './messagingService';
import { now, paidSend } from './paidSends';

export async function sendOneTimeCode(
  app: AppPart<'connection' | 'db' | 'service' | 'session'>,
  input: { receiverNumber: string; senderId: string; numberOfDigits: number; seconds: number; emails: string[] },
): Promise<OtpSentView> {
  const session = app.session();
  await app.service(createMessagingService).approvedSender(input.senderId);
  const estimate = otpCostEstimate(input.numberOfDigits, input.emails.length);
  const sentAt = now();
  const { answer: sent, charge } = await paidSend(
    app,
    session,
    {
      kind: 'otp',
      senderId: input.senderId,
      target: input.receiverNumber,
      templateId: null,
      body: `${input.numberOfDigits}-digit code, valid ${input.seconds} s`,
      recipients: 1,
      emails: input.emails.length,
      quotedKobo: estimate.totalKobo,
    },
    (client, options) =>
      client.sendEvidence(
        {
          receiverNumber: input.receiverNumber,
          senderId: input.senderId,
          numberOfDigits: input.numberOfDigits,
          seconds: input.seconds,
          sendtoEmail: input.emails.length > 0,
          emails: input.emails,
        },
        options,
      ),
    // A code is confirmed by its reference: the answer's, else (a service that keeps the code under
    // the request's reference) the envelope's requestReference.
    (answer) => ({
      reference: answer.reference ?? (answer.requestReference || null),
      chargedKobo: answer.costKobo ?? estimate.totalKobo,
      source: answer.costKobo === null ? 'quoted' : 'service',
      requestReference: answer.requestReference || null,
    }),
  );
  const notes: string[] = [];
  if (sent.reference === null) {
    notes.push(
      charge.reference
        ? `The service did not give the code's reference; vendesk confirms it with the answer's request reference ${charge.reference}.`
        : "The service did not give the code's reference, so vendesk cannot confirm it.",
    );
  }
  if (charge.source === 'quoted') notes.push('The service did not say what it charged; the cost shown is the quoted cost.');
  const expiresAt = sent.expiresAt ?? new Date(Date.parse(sentAt) + input.seconds * 1000).toISOString();
  return {
    reference: charge.reference,
    receiverNumber: sent.receiverNumber ?? input.receiverNumber,
    numberOfDigits: sent.numberOfDigits ?? input.numberOfDigits,
    seconds: input.seconds,
    sentAt,
    expiresAt,
    costKobo: charge.chargedKobo,
    costSource: charge.source,
    notes,
  };
}

export async function confirmOneTimeCode(app: AppPart<'client'>, input: { reference: string; code: string }): Promise<OtpConfirmedView> {
  let confirmed;
  try {
    confirmed = await app.client().confirmEvidence({ otp: input.code, reference: input.reference });
  } catch (error) {
    if (error instanceof ServiceError && (error.httpStatus === 400 || error.httpStatus === 404)) throw otpRefusal(error.httpStatus, error.reason, input.reference);
    throw error;
  }
  // A success envelope whose data still says "not verified".
  if (!confirmed.confirmed) throw otpRefusal(400, confirmed.reason ?? 'the code was not accepted', input.reference);
  return { reference: confirmed.reference ?? input.reference, confirmedAt: confirmed.confirmedAt ?? now() };
}

/** Why a code was refused, in words a person acts on. */
function otpRefusal(httpStatus: number | null, said: string, reference: string): AppError {
  const reason = said.toLowerCase();
  if (httpStatus === 404) {
    return new AppError('otp_unknown', `No one-time code has the reference ${reference}.`, 'Check the reference shown when the code was sent.');
  }
  if (reason.includes('expired')) {
    return new AppError('otp_expired', 'The code has expired and can no longer be confirmed.', 'Send a new code.', { reason: said });
  }
  if (reason.includes('used') || reason.includes('already')) {
    return new AppError('otp_used', 'This code was already confirmed; a code can be confirmed once only.', 'Send a new code if another confirmation is needed.', { reason: said });
  }
  if (reason.includes('match') || reason.includes('wrong') || reason.includes('invalid') || reason.includes('incorrect')) {
    return new AppError('otp_wrong', 'The code does not match the one that was sent.', 'Check the digits with the recipient and try again.', { reason: said });
  }
  return new AppError('otp_refused', `The code was not accepted (the service said: "${said}").`, 'Check the code and the reference, or send a new code.', { reason: said });
}
