/**
 * How one request to the vending and messaging service is sent, retried and recorded: the HTTP
 * exchange under a timeout and the caller's signal, the retry policy of the endpoint's kind (below),
 * the pacer of paced reads, and the redacted record of
 * every answer. The client's endpoint methods build on `request` and `send`.
 *
 * ## Errors and retries
 * - Every call has a timeout (`timeoutMs`, default 30 s, `AbortSignal.timeout`) and accepts an
 *   optional `AbortSignal`.
 * - Reads (catalogs, balance, validations, requery, logs, messaging lists and status) are retried
 *   with jittered exponential backoff on timeouts, network errors and HTTP 500/502/503/504;
 *   when they still fail they throw `ServiceError` (action `retry_later`).
 * - Purchases are retried only on HTTP 503 (the spec: nothing was posted, retry after a short
 *   delay) and when the connection was refused (nothing was sent). A timeout, a dropped
 *   connection, a cancel after sending, any other 5xx or an unreadable 2xx throws
 *   `UncertainOutcomeError`: the purchase may have been charged and must be settled from the log
 *   or by requery, never resent blindly.
 * - Messaging and phonebook writes (`sendMessage`, `sendEvidence`, `confirmEvidence`,
 *   `createTemplate`, `createPhonebook`, `createContacts`) are never repeated automatically; a
 *   timeout on them throws `UncertainOutcomeError` too (a message may have been sent and paid).
 *   A 2xx success answer to them is a success whatever shape its data has: never uncertain.
 * - A read given a `pacer` (CallOptions; the log sync's pages) waits for the pacer's turn before
 *   each attempt and reports each answer to it; it is tried up to the pacer's `attempts`, also on
 *   HTTP 429, and the pacer's shared back-off (Retry-After honoured) replaces the delay above.
 * - Every HTTP error status becomes a `ServiceError` whose `action` says what to do (see
 *   `serviceErrors.ts` and docs/errors.md). The token never appears in any message.
 */
import type { z } from 'zod';
import { decodeEnvelope, decodeLooseAnswer, MalformedResponseError, type DecodedResult, type LooseReader } from './decodeEnvelope';
import type { RequestPacer, Turn } from './requestPacer';
import { backoffDelay, parseRetryAfter, sleep, type ResolvedRetry } from './retryBackoff';
import { ENDPOINTS, malformedError, RequestCancelledError, UncertainOutcomeError, unreachableError, type EndpointName } from './serviceErrors';
import { addNote, type RecordedAnswer, type ServiceAnswers } from './serviceAnswers';
import type { ServiceClockEstimate, ServiceWindow } from './serviceTime';

export interface RawAnswer {
  status: number;
  body: unknown;
  /** The body as received. */
  text: string;
  contentType: string | null;
  retryAfterMs: number | null;
  /** Where the answer was made on the service's clock. */
  window: ServiceWindow;
}

type TransportKind = 'timeout' | 'network' | 'unreachable' | 'cancelled';

class TransportFailure extends Error {
  constructor(
    readonly kind: TransportKind,
    readonly detail: string,
  ) {
    super(detail);
  }
}

/** Error codes of a connection that was never made: nothing was sent. */
const NOT_SENT_CODES = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'EHOSTUNREACH', 'ENETUNREACH', 'ERR_INVALID_URL']);
const READ_RETRY_STATUSES = new Set([500, 502, 503, 504]);

export type Query = Record<string, string | number | boolean | undefined>;

export interface RequestSpec<T> {
  endpoint: EndpointName;
  method: 'GET' | 'POST';
  /** A path under baseUrl, or an absolute URL (requested under baseUrl: `ServiceRequests.url`). */
  path: string;
  query?: Query;
  body?: unknown;
  /** A documented shape, read strictly… */
  schema?: z.ZodType<T>;
  /** …or a not-shown one, read by meaning. */
  reader?: LooseReader<T>;
  signal?: AbortSignal;
  onAnswered?: (window: ServiceWindow) => void;
  /** Overrides the retry policy's attempts (the voucher retry is a single try). */
  attempts?: number;
  pacer?: RequestPacer;
}

export interface Answered<T> {
  result: DecodedResult<T>;
  /** More than one attempt was made. */
  retried: boolean;
}

/** Sends requests to one service with one token and one set of timings. */
export class ServiceRequests {
  constructor(
    private readonly baseUrl: string,
    private readonly token: string,
    private readonly timeout: { ms: number; start: (ms: number) => AbortSignal },
    private readonly retry: ResolvedRetry,
    private readonly clock: ServiceClockEstimate,
    private readonly answers: ServiceAnswers,
  ) {}

  /**
   * Where a request goes: a path under baseUrl, or an absolute URL the service gave (a `NextPage`
   * link). The token is bound to baseUrl whole — scheme, host, port and path — so an absolute URL
   * is requested from baseUrl's origin and under baseUrl's path: a link to another path of the
   * same host (`/other/…` when baseUrl is `…/v1`: another application behind the same gateway) is
   * put under baseUrl's path rather than followed, as is a link naming another host.
   */
  url(path: string, query: Query = {}): URL {
    let url: URL;
    if (/^https?:\/\//i.test(path)) {
      const given = new URL(path);
      const base = new URL(this.baseUrl);
      const prefix = base.pathname.replace(/\/+$/, '');
      const under = prefix === '' || given.pathname === prefix || given.pathname.startsWith(`${prefix}/`);
      url = new URL(base.origin);
      // Set as a path, never parsed as a link: `//host/…` stays a path on baseUrl's host.
      url.pathname = under ? given.pathname : `${prefix}${given.pathname}`;
      url.search = given.search;
    } else {
      url = new URL(this.baseUrl + path);
    }
    for (const [key, value] of Object.entries(query)) {
      if (value === undefined || value === '') continue;
      url.searchParams.set(key, String(value));
    }
    return url;
  }

  /**
   * Sends the request with the retry policy of the endpoint's kind. Returns the decoded answer
   * (including `failed` for HTTP errors, which the caller maps); throws `UncertainOutcomeError`,
   * `RequestCancelledError` or `ServiceError` for transport failures and unreadable answers.
   */
  async request<T>(spec: RequestSpec<T>): Promise<Answered<T>> {
    const { endpoint, signal } = spec;
    const kind = ENDPOINTS[endpoint].kind;
    // Only reads are paced: a purchase is never repeated on a 429.
    const pacer = kind === 'read' ? spec.pacer : undefined;
    const attempts = spec.attempts ?? (kind === 'write' ? 1 : pacer ? pacer.attempts : this.retry.attempts);
    const url = this.url(spec.path, spec.query);

    for (let attempt = 0; ; attempt++) {
      if (signal?.aborted) throw new RequestCancelledError(endpoint);
      const canRetry = attempt + 1 < attempts;
      let turn: Turn | null = null;
      if (pacer) {
        try {
          turn = await pacer.acquire(signal);
        } catch {
          throw new RequestCancelledError(endpoint);
        }
      }
      let answer: RawAnswer;
      const startedMs = Date.now();
      try {
        answer = await this.send(spec.method, url, spec.body, signal);
      } catch (error) {
        turn?.done(error instanceof TransportFailure && error.kind === 'cancelled' ? 0 : null);
        if (!(error instanceof TransportFailure)) throw error;
        addNote(this.answers.record({ endpoint, method: spec.method, url, startedMs, httpStatus: null, contentType: null, text: '', parsed: '' }), `No answer: ${error.detail}.`);
        if (error.kind === 'cancelled') {
          if (kind === 'read') throw new RequestCancelledError(endpoint);
          throw new UncertainOutcomeError(endpoint, 'cancelled', null, error.detail);
        }
        const safeToRepeat = kind === 'read' || error.kind === 'unreachable';
        // A paced read tries a service that does not answer no more often than an unpaced one.
        if (safeToRepeat && canRetry && (!pacer || attempt + 1 < this.retry.attempts)) {
          if (!pacer) await this.pause(attempt, null, endpoint, signal);
          continue;
        }
        if (safeToRepeat) throw unreachableError(endpoint, error.kind === 'timeout' ? 'timeout' : 'network', error.detail);
        throw new UncertainOutcomeError(endpoint, error.kind === 'timeout' ? 'timeout' : 'network', null, error.detail);
      }

      const { status } = answer;
      const recorded = this.answers.record({
        endpoint,
        method: spec.method,
        url,
        startedMs,
        httpStatus: status,
        contentType: answer.contentType,
        text: answer.text,
        parsed: answer.body,
      });
      turn?.done(status, answer.retryAfterMs);
      spec.onAnswered?.(answer.window);
      const retryable = kind === 'read' ? READ_RETRY_STATUSES.has(status) || (pacer !== undefined && status === 429) : kind === 'purchase' && status === 503;
      if (retryable && canRetry) {
        if (!pacer) await this.pause(attempt, answer.retryAfterMs, endpoint, signal);
        continue;
      }
      // A purchase or paid write that failed on the server's side after it was received.
      if (kind !== 'read' && status >= 500 && status !== 503) {
        throw new UncertainOutcomeError(endpoint, 'server_error', status, `HTTP ${status}`);
      }
      try {
        const result = spec.reader
          ? decodeLooseAnswer(status, answer.body, spec.reader, (text) => addNote(recorded, text))
          : decodeEnvelope(status, answer.body, spec.schema as z.ZodType<T>);
        noteReading(recorded, result);
        return { result, retried: attempt > 0 };
      } catch (error) {
        if (!(error instanceof MalformedResponseError)) throw error;
        recorded.reading = 'unreadable';
        addNote(recorded, `vendesk could not read it: ${error.problem}.`);
        if (kind === 'read') throw malformedError(endpoint, status, error.problem);
        throw new UncertainOutcomeError(endpoint, 'malformed_answer', status, error.problem);
      }
    }
  }

  private async pause(attempt: number, retryAfterMs: number | null, endpoint: EndpointName, signal?: AbortSignal): Promise<void> {
    try {
      await sleep(backoffDelay(attempt, this.retry, retryAfterMs), signal);
    } catch {
      throw new RequestCancelledError(endpoint);
    }
  }

  /** One HTTP exchange, body included, under the timeout and the caller's signal. */
  async send(method: 'GET' | 'POST', url: URL, body: unknown, signal?: AbortSignal): Promise<RawAnswer> {
    const timeout = this.timeout.start(this.timeout.ms);
    const combined = signal ? AbortSignal.any([signal, timeout]) : timeout;
    const headers: Record<string, string> = { Authorization: `Bearer ${this.token}`, Accept: 'application/json' };
    if (body !== undefined) headers['Content-Type'] = 'application/json';
    const sentAt = Date.now();
    try {
      const response = await fetch(url, {
        method,
        headers,
        body: body === undefined ? undefined : JSON.stringify(body),
        signal: combined,
        redirect: 'error',
      });
      const text = await response.text();
      let parsed: unknown = text;
      if (text.trim() !== '') {
        try {
          parsed = JSON.parse(text);
        } catch {
          parsed = text;
        }
      }
      const window = this.clock.observe(Date.parse(response.headers.get('date') ?? ''), sentAt, Date.now());
      return {
        status: response.status,
        body: parsed,
        text,
        contentType: response.headers.get('content-type'),
        retryAfterMs: parseRetryAfter(response.headers.get('retry-after')),
        window,
      };
    } catch (error) {
      if (signal?.aborted) throw new TransportFailure('cancelled', 'cancelled by the caller');
      if (timeout.aborted) throw new TransportFailure('timeout', `no answer within ${this.timeout.ms} ms`);
      const code = errorCode(error);
      if (code && NOT_SENT_CODES.has(code)) throw new TransportFailure('unreachable', code);
      throw new TransportFailure('network', code ?? causeMessage(error));
    }
  }
}

/** How the answer was read, on its record: refused (an error), read, or read with gaps noted. */
function noteReading(recorded: RecordedAnswer, result: DecodedResult<unknown>): void {
  if (result.kind === 'failed') {
    recorded.reading = 'refused';
    addNote(recorded, `The service refused the request: ${result.reason}`);
  } else {
    recorded.reading = recorded.notes.length ? 'read_with_gaps' : 'read';
  }
}

/** The innermost message of a fetch failure ("bad port" rather than "fetch failed"). */
function causeMessage(error: unknown): string {
  let current: unknown = error;
  let message = 'network error';
  for (let depth = 0; depth < 4 && current instanceof Error; depth++) {
    if (current.message) message = current.message;
    current = current.cause;
  }
  return message;
}

/** The system error code (ECONNREFUSED…) of a fetch failure, looking through `cause`. */
function errorCode(error: unknown): string | null {
  let current: unknown = error;
  for (let depth = 0; depth < 4 && current && typeof current === 'object'; depth++) {
    const code = (current as { code?: unknown }).code;
    if (typeof code === 'string' && code !== '') return code;
    current = (current as { cause?: unknown }).cause;
  }
  return null;
}
