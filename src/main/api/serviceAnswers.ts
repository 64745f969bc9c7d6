/**
 * The last few answers the service gave on each endpoint, as it gave them, so a support
 * conversation can start from facts (Settings → Connection → Service answers, `vendesk doctor`).
 * Kept in memory per connection; the token and phone numbers are redacted before an answer is
 * kept, and a long body is cut to its first characters.
 */
import { redactSecrets } from '../redact';
import { redactPhoneNumbers } from '../redactPhoneNumbers';
import type { ServiceAnswerView } from '../../shared/contract/serviceCheck';
import { ENDPOINTS, type EndpointName } from './serviceErrors';

/** Answers kept per endpoint. */
export const ANSWERS_PER_ENDPOINT = 5;
/** Characters of a body kept. */
export const BODY_CHARS = 4_000;
/** Bodies up to this size are pretty-printed (larger ones are kept as they came, cut). */
const PRETTY_UP_TO = 20_000;
/** Characters past the cut that are redacted with it. */
const REDACTION_MARGIN = 512;

/** A kept answer (see ServiceAnswerView in the contract). */
export interface RecordedAnswer extends ServiceAnswerView {
  endpoint: EndpointName;
}

/** Token and phone numbers out. */
export function redactForSupport(text: string): string {
  return redactPhoneNumbers(redactSecrets(text));
}

/**
 * Adds a note to a kept answer. Notes quote the answer (a service's reason, what could not be
 * read), so each is redacted like the body: a token the service echoed never reaches doctor or
 * Settings through a note.
 */
export function addNote(entry: RecordedAnswer, text: string): void {
  entry.notes.push(redactForSupport(text));
}

function hasEnvelope(body: unknown): boolean {
  return typeof body === 'object' && body !== null && !Array.isArray(body) && Object.keys(body).some((k) => k.toLowerCase().replace(/[_\s-]/g, '') === 'gatewaystatus');
}

export class ServiceAnswers {
  private readonly byEndpoint = new Map<EndpointName, RecordedAnswer[]>();
  private seq = 0;

  /** Keeps an answer (redacted) and returns the kept record, which the caller completes with its reading. */
  record(input: {
    endpoint: EndpointName;
    method: 'GET' | 'POST';
    url: URL;
    startedMs: number;
    httpStatus: number | null;
    contentType: string | null;
    text: string;
    parsed: unknown;
  }): RecordedAnswer {
    // Only the kept part is worked on: a 1,000-entry log page is not re-printed or scanned whole.
    let shown = input.text;
    if (input.text.length <= PRETTY_UP_TO && input.parsed !== input.text && typeof input.parsed === 'object' && input.parsed !== null)
      shown = JSON.stringify(input.parsed, null, 2);
    const total = shown.length;
    // Redacted with a margin past the cut, so a token or number across it is hidden whole.
    const redacted = redactForSupport(shown.slice(0, BODY_CHARS + REDACTION_MARGIN));
    const kept = total > BODY_CHARS ? `${redacted.slice(0, BODY_CHARS)}\n… (${(total - BODY_CHARS).toLocaleString('en-NG')} more characters not kept)` : redacted;
    const entry: RecordedAnswer = {
      endpoint: input.endpoint,
      subject: ENDPOINTS[input.endpoint].subject,
      method: input.method,
      path: redactForSupport(decodeURIComponentSafe(input.url.pathname + input.url.search)),
      at: new Date().toISOString(),
      durationMs: Date.now() - input.startedMs,
      httpStatus: input.httpStatus,
      contentType: input.contentType,
      body: kept,
      bodyChars: total,
      envelope: hasEnvelope(input.parsed),
      reading: input.httpStatus === null ? 'no_answer' : 'read',
      seq: 0,
      notes: [],
    };
    this.push(entry);
    return entry;
  }

  private push(entry: RecordedAnswer): void {
    entry.seq = ++this.seq;
    const list = this.byEndpoint.get(entry.endpoint) ?? [];
    list.push(entry);
    if (list.length > ANSWERS_PER_ENDPOINT) list.splice(0, list.length - ANSWERS_PER_ENDPOINT);
    this.byEndpoint.set(entry.endpoint, list);
  }

  /** Every kept answer, newest first. */
  list(): RecordedAnswer[] {
    return [...this.byEndpoint.values()].flat().sort((a, b) => b.seq - a.seq);
  }

  /** Keeps an answer recorded elsewhere (a check's own client) in this connection's list. */
  keep(entry: RecordedAnswer): void {
    this.push({ ...entry, notes: [...entry.notes] });
  }

  /** The newest answer of an endpoint. */
  last(endpoint: EndpointName): RecordedAnswer | null {
    const list = this.byEndpoint.get(endpoint);
    return list && list.length ? list[list.length - 1] : null;
  }
}

function decodeURIComponentSafe(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}
