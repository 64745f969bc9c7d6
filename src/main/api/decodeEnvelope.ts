/**
 * The one place that reads the service's envelope (`gatewayStatus`, `gatewayMessage`,
 * `requestReference`, `data`) and turns an HTTP answer into a result. Every quirk of the spec is
 * absorbed here and nowhere else:
 *
 * - `Successfully Processed` and the log endpoint's `Sucessfully Processed` both mean success;
 *   the failure text is spelled `Unsucessfull`. `gatewayStatus` is authoritative; the message is
 *   only read when the status is missing or unknown.
 * - On `88`, `data` is a string with the reason (an object with `reason`/`message` is accepted too).
 * - When pending (`01`, or an HTTP 202 that does not confirm), `data` is `{}` and is ignored.
 * - Airtime and data acceptance answers HTTP 202 with `00` and `{message, references[]}`: that is
 *   a success (the batch was accepted); each item's outcome comes later through logs/requery.
 * - An HTTP status of 400 or more is a failure whatever the envelope says.
 */
import type { z } from 'zod';
import { envelopeSchema } from './wireSchemas';

export type DecodedResult<T> =
  | { kind: 'success'; data: T; reference: string; httpStatus: number }
  | { kind: 'pending'; reference: string; httpStatus: number }
  | { kind: 'failed'; reason: string; reference: string; httpStatus: number };

/** A 2xx body that is not an envelope, or whose `data` does not have the documented shape. */
export class MalformedResponseError extends Error {
  constructor(
    readonly httpStatus: number,
    readonly problem: string,
  ) {
    super(`The service answered HTTP ${httpStatus} in an unexpected format (${problem})`);
    this.name = 'MalformedResponseError';
  }
}

type GatewayKind = 'success' | 'pending' | 'failed' | 'unknown';

/** `00`/`0` success, `01`/`1` pending, `88` failure; falls back on the message text. */
export function gatewayKind(gatewayStatus: string | undefined, gatewayMessage: string | undefined): GatewayKind {
  const status = (gatewayStatus ?? '').trim();
  if (status === '00' || status === '0') return 'success';
  if (status === '01' || status === '1') return 'pending';
  if (status === '88') return 'failed';
  const message = (gatewayMessage ?? '').trim();
  if (/^unsuc+es+ful+/i.test(message)) return 'failed';
  if (/^suc+es+ful+y\s+processed/i.test(message)) return 'success';
  if (/pending/i.test(message)) return 'pending';
  return 'unknown';
}

/** True for the `{}` (or null, or `""`) the service sends as data when a purchase is pending. */
function isEmptyData(data: unknown): boolean {
  if (data === undefined || data === null || data === '') return true;
  return typeof data === 'object' && !Array.isArray(data) && Object.keys(data).length === 0;
}

/** The failure reason: the data string on `88`, else a reason-like field, else the message. */
export function failureReason(data: unknown, gatewayMessage: string, httpStatus: number): string {
  if (typeof data === 'string' && data.trim() !== '') return data.trim();
  if (data && typeof data === 'object' && !Array.isArray(data)) {
    const record = data as Record<string, unknown>;
    for (const key of ['reason', 'message', 'error']) {
      const value = record[key];
      if (typeof value === 'string' && value.trim() !== '') return value.trim();
    }
  }
  const message = gatewayMessage.trim();
  if (message !== '' && !/^unsuc+es+ful+/i.test(message)) return message;
  return httpStatus >= 400 ? `the service answered HTTP ${httpStatus}` : 'the service reported the request as unsuccessful';
}

/**
 * Decodes one answer. `body` is the parsed JSON body (or the raw text when it was not JSON).
 * Throws `MalformedResponseError` only for a 2xx answer that cannot be read; any answer of 400 or
 * more decodes to `failed` with the best reason available (the caller maps it to an error).
 */
export function decodeEnvelope<T>(httpStatus: number, body: unknown, dataSchema: z.ZodType<T>): DecodedResult<T> {
  const parsed = envelopeSchema.safeParse(body);
  if (httpStatus >= 400) {
    if (!parsed.success) {
      return { kind: 'failed', reason: failureReason(body, '', httpStatus), reference: '', httpStatus };
    }
    const { data, gatewayMessage, requestReference } = parsed.data;
    return { kind: 'failed', reason: failureReason(data, gatewayMessage, httpStatus), reference: requestReference, httpStatus };
  }
  if (httpStatus < 200 || httpStatus >= 300) {
    throw new MalformedResponseError(httpStatus, 'not a success or error status');
  }
  if (!parsed.success) throw new MalformedResponseError(httpStatus, 'the body is not an envelope');
  const { gatewayStatus, gatewayMessage, requestReference: reference, data } = parsed.data;
  const kind = gatewayKind(gatewayStatus, gatewayMessage);

  if (kind === 'failed') {
    return { kind: 'failed', reason: failureReason(data, gatewayMessage, httpStatus), reference, httpStatus };
  }
  if (kind === 'pending') return { kind: 'pending', reference, httpStatus };
  // 202 "accepted, not confirmed": pending unless it says 00 and carries a result (airtime/data).
  if (httpStatus === 202 && (kind !== 'success' || isEmptyData(data))) return { kind: 'pending', reference, httpStatus };
  if (kind === 'unknown') throw new MalformedResponseError(httpStatus, `unknown gatewayStatus "${gatewayStatus}"`);

  const result = dataSchema.safeParse(data);
  if (!result.success) {
    const issue = result.error.issues[0];
    const where = issue && issue.path.length > 0 ? issue.path.join('.') : 'data';
    throw new MalformedResponseError(httpStatus, `${where}: ${issue?.message ?? 'invalid'}`);
  }
  return { kind: 'success', data: result.data, reference, httpStatus };
}

/** What a reader of a not-shown answer knows besides its data, and where it notes what was missing. */
export interface AnswerContext {
  /** The envelope's requestReference ('' when none). */
  requestReference: string;
  httpStatus: number;
  /** Keeps a sentence about what the answer did not say, with the recorded answer. */
  note(text: string): void;
}

/** Reads a not-shown answer's `data` (see messagingAnswers.ts). */
export type LooseReader<T> = (data: unknown, context: AnswerContext) => T;

/** A read that found no list or record where one was expected. */
export class UnreadableDataError extends Error {}

const ENVELOPE_KEYS = { gatewaystatus: 'gatewayStatus', gatewaymessage: 'gatewayMessage', requestreference: 'requestReference', data: 'data' } as const;

/**
 * The envelope of an answer whose shape the spec does not show, read by meaning: its keys in any
 * case (`GatewayStatus`, `gateway_status`), the status as a string or a number. A JSON body with
 * no status at all is no envelope: its HTTP status decides, and the whole body is the data
 * (unless it says `success: false` or carries an `error`). null for a body that is not JSON.
 */
export function looseEnvelope(body: unknown): { status: string | null; message: string; reference: string; data: unknown } | null {
  if (Array.isArray(body)) return { status: null, message: '', reference: '', data: body };
  if (typeof body !== 'object' || body === null) return body === '' || body === undefined ? { status: null, message: '', reference: '', data: null } : null;
  const found: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(body)) {
    const canonical = ENVELOPE_KEYS[key.toLowerCase().replace(/[_\s-]/g, '') as keyof typeof ENVELOPE_KEYS];
    if (canonical && !(canonical in found)) found[canonical] = value;
  }
  const status = found.gatewayStatus;
  if (typeof status !== 'string' && typeof status !== 'number') {
    const record = body as Record<string, unknown>;
    const lower = Object.fromEntries(Object.entries(record).map(([k, v]) => [k.toLowerCase(), v]));
    const failed =
      lower.success === false ||
      lower.success === 'false' ||
      (typeof lower.error === 'string' && lower.error.trim() !== '') ||
      lower.status === 'error' ||
      lower.status === 'failed';
    if (failed) return { status: '88', message: '', reference: '', data: lower.message ?? lower.error ?? lower.reason ?? '' };
    return { status: null, message: '', reference: typeof found.requestReference === 'string' ? found.requestReference : '', data: 'data' in found ? found.data : body };
  }
  const numeric = typeof status === 'number' ? String(status).padStart(2, '0') : status.trim();
  return {
    status: numeric,
    message: typeof found.gatewayMessage === 'string' ? found.gatewayMessage : '',
    reference: typeof found.requestReference === 'string' ? found.requestReference : typeof found.requestReference === 'number' ? String(found.requestReference) : '',
    data: found.data,
  };
}

/**
 * Decodes an answer of a messaging endpoint (whose shape the spec does not show). A failure is
 * read as `decodeEnvelope` reads it. A 2xx success — or pending: the request was accepted — is
 * always a success: `read` takes what it can from `data` and notes what is missing. Throws
 * `MalformedResponseError` only for a 2xx body that is not JSON, an unknown gatewayStatus, or a
 * read that found no list.
 */
export function decodeLooseAnswer<T>(httpStatus: number, body: unknown, read: LooseReader<T>, note: (text: string) => void): DecodedResult<T> {
  const envelope = looseEnvelope(body);
  if (httpStatus >= 400) {
    if (!envelope) return { kind: 'failed', reason: failureReason(body, '', httpStatus), reference: '', httpStatus };
    return { kind: 'failed', reason: failureReason(lowerKeys(envelope.data), envelope.message, httpStatus), reference: envelope.reference, httpStatus };
  }
  if (httpStatus < 200 || httpStatus >= 300) throw new MalformedResponseError(httpStatus, 'not a success or error status');
  if (!envelope) throw new MalformedResponseError(httpStatus, 'the body is not JSON');
  const kind = envelope.status === null ? 'success' : gatewayKind(envelope.status, envelope.message);
  if (kind === 'failed') return { kind: 'failed', reason: failureReason(lowerKeys(envelope.data), envelope.message, httpStatus), reference: envelope.reference, httpStatus };
  if (kind === 'unknown') throw new MalformedResponseError(httpStatus, `unknown gatewayStatus "${envelope.status}"`);
  if (kind === 'pending') note('The service answered "pending": the request was accepted and is taken as done.');
  if (envelope.status === null) note("The answer is not in the service's envelope; its HTTP status is taken as the outcome.");
  try {
    return { kind: 'success', data: read(envelope.data, { requestReference: envelope.reference, httpStatus, note }), reference: envelope.reference, httpStatus };
  } catch (error) {
    if (error instanceof UnreadableDataError) throw new MalformedResponseError(httpStatus, error.message);
    throw error;
  }
}

function lowerKeys(data: unknown): unknown {
  if (typeof data !== 'object' || data === null || Array.isArray(data)) return data;
  return Object.fromEntries(Object.entries(data).map(([k, v]) => [k.toLowerCase(), v]));
}
