/**
 * The typed client of the vending and messaging service (`shared/spec/vending-messaging-interface.md`).
 * Plain Node 20 (global fetch), no Electron. One method per endpoint. The shapes the spec shows
 * (envelope, vending, catalogs, logs, balance) are parsed strictly with the zod schemas of
 * `wireSchemas.ts` by `decodeEnvelope`; the messaging answers, whose shapes it does not show, are
 * read by meaning (`decodeLooseAnswer` and messagingAnswers.ts): any key spelling, ids as numbers
 * or strings, lists bare or wrapped, missing fields as null. Every answer is kept, redacted, in
 * `answers` (serviceAnswers.ts) for support.
 *
 * How requests are sent, retried and turned into errors: serviceRequest.ts.
 * Voucher rule: when an airtime or data batch still answers 503 after those retries and some
 * items carried a `voucherCode`, the batch is sent once more with the voucher codes removed
 * (another server can then vend it); the result says `voucherDropped: true`.
 *
 * Longer than 400 lines on purpose: one short method per endpoint of the interface, which reads
 * best as one list; how a request is sent is in serviceRequest.ts.
 */
import type { z } from 'zod';
import type {
  AccountBalance,
  AirtimeItem,
  AirtimeProduct,
  BatchAccepted,
  CableBouquet,
  CablePurchase,
  CableResult,
  CreateTemplateBody,
  DataItem,
  DataPlan,
  ElectricityProvider,
  ElectricityPurchase,
  ElectricityResult,
  LogEntry,
  LogQuery,
  MeterValidation,
  OutboxEntry,
  PageObject,
  RequeryResult,
  SendEvidenceBody,
  SendMessageBody,
  SmartcardValidation,
  VendType,
} from '../../shared/wire';
import { registerSecret } from '../redact';
import type { DecodedResult, LooseReader } from './decodeEnvelope';
import type { RequestPacer } from './requestPacer';
import * as answers from './messagingAnswers';
import type {
  ContactsCreatedAnswer,
  CreatedPhonebookAnswer,
  EvidenceConfirmedAnswer,
  EvidenceSentAnswer,
  HistoryPageAnswer,
  MessageAnswer,
  PhonebookAnswer,
  SenderIdAnswer,
  TemplateAnswer,
} from './messagingAnswers';
import { resolveRetry, type ResolvedRetry, type RetryOptions } from './retryBackoff';
import { malformedError, RequestCancelledError, ServiceError, serviceErrorFor, UncertainOutcomeError, type EndpointName } from './serviceErrors';
import { ServiceAnswers } from './serviceAnswers';
import { ServiceClockEstimate, type ServiceWindow } from './serviceTime';
import { ServiceRequests, type Answered, type Query, type RequestSpec } from './serviceRequest';
import * as schemas from './wireSchemas';

export interface VendingClientOptions {
  /** The service root, e.g. `https://api.example.ng` or the sandbox URL. */
  baseUrl: string;
  token: string;
  /** Per attempt, including reading the body. Default 30 000 ms. */
  timeoutMs?: number;
  /**
   * Starts the timeout of one attempt: a signal that aborts when it is up (default
   * `AbortSignal.timeout(timeoutMs)`). A test of a timeout passes its own, and fires it once the
   * server has the request: never before it was sent, however busy the machine.
   */
  startTimeout?: (timeoutMs: number) => AbortSignal;
  retry?: RetryOptions;
  /** Where the answers are kept (default: a new store for this client). */
  answers?: ServiceAnswers;
}

/** Per-call options. */
export interface CallOptions {
  signal?: AbortSignal;
  /** Told where the answer was made on the service's clock (see serviceTime.ts). */
  onAnswered?: (window: ServiceWindow) => void;
  /** Reads only: share this pace (in-flight limit, rate ceiling, back-off) with other calls. */
  pacer?: RequestPacer;
}

/** Notes on how a purchase was carried out. */
export interface PurchaseNotes {
  /** Airtime/data: the batch went through only after its voucher codes were removed (voucher rule). */
  voucherDropped?: boolean;
  /** Electricity/cable `failed` from an HTTP 400 decline: a debited wallet is refunded automatically. */
  refunded?: boolean;
}

/**
 * What a purchase answered. `success`: completed (electricity/cable) or accepted (airtime/data:
 * `data.references` has one reference per item; each item's outcome comes through the log or a
 * requery of that reference). `pending`: accepted, not confirmed; requery `reference` no earlier
 * than 2 minutes later and do not buy it again meanwhile. `failed`: the service settled THIS
 * purchase as not done, with its reason (an `88` answer, or an electricity/cable HTTP 400
 * decline — nothing charged, or refunded automatically: `refunded: true`).
 */
export type PurchaseResult<T> = DecodedResult<T> & PurchaseNotes;

export type MeterValidationRequest = { meter: string; disco: string; vendType: VendType };
export type SmartcardValidationRequest = { smartcard: string; provider: string };

export interface MessageHistoryQuery {
  page?: number;
  perPage?: number;
  startdate?: string;
  enddate?: string;
  /** Partial match on reference, text, sender ID or recipient. */
  search?: string;
}

export class VendingClient {
  readonly baseUrl: string;
  private readonly token: string;
  /** Per attempt, body included. */
  readonly timeoutMs: number;
  private readonly retry: ResolvedRetry;
  /** The service's clock, learnt from every answer's `Date` header. */
  readonly clock = new ServiceClockEstimate();
  /** The last answers of each endpoint, redacted (Settings → Service answers, `vendesk doctor`). */
  readonly answers: ServiceAnswers;
  private readonly startTimeout: (timeoutMs: number) => AbortSignal;
  private readonly http: ServiceRequests;

  constructor(options: VendingClientOptions) {
    this.baseUrl = options.baseUrl.replace(/\/+$/, '');
    this.token = options.token;
    this.timeoutMs = options.timeoutMs ?? 30_000;
    this.retry = resolveRetry(options.retry);
    this.answers = options.answers ?? new ServiceAnswers();
    registerSecret(options.token);
    this.startTimeout = options.startTimeout ?? ((ms) => AbortSignal.timeout(ms));
    this.http = new ServiceRequests(this.baseUrl, this.token, { ms: this.timeoutMs, start: this.startTimeout }, this.retry, this.clock, this.answers);
  }

  /**
   * What the sandbox "sent" (`GET /__sandbox/outbox`, a sandbox control endpoint): SMS and email
   * copies, one-time codes included. The real service has no such endpoint; callers ask only on a
   * sandbox connection. Read once, not retried, not kept among the service's answers.
   */
  async sandboxOutbox(): Promise<OutboxEntry[]> {
    const answer = await this.http.send('GET', new URL(`${this.baseUrl}/__sandbox/outbox`), undefined);
    const data = (answer.body as { data?: unknown } | null)?.data;
    if (answer.status !== 200 || !Array.isArray(data)) throw new Error(`the sandbox outbox answered HTTP ${answer.status}`);
    return data as OutboxEntry[];
  }

  /** A client for the same service and token with other timings, keeping its answers in `answers` (default: this client's). */
  withTimings(options: { timeoutMs?: number; retry?: RetryOptions }, answers: ServiceAnswers = this.answers): VendingClient {
    return new VendingClient({
      baseUrl: this.baseUrl,
      token: this.token,
      answers,
      timeoutMs: options.timeoutMs ?? this.timeoutMs,
      startTimeout: this.startTimeout,
      retry: options.retry ?? this.retry,
    });
  }

  // ---------------------------------------------------------------- catalogs and account

  airtimeCatalog(options: CallOptions = {}): Promise<AirtimeProduct[]> {
    return this.read('airtimeCatalog', '/AirtimeList', schemas.airtimeProductSchema.array(), {}, options);
  }

  /** `network`: GLOBACOM, AIRTEL, MTN or 9MOBILE; without it the full catalog. */
  dataCatalog(network?: string, options: CallOptions = {}): Promise<DataPlan[]> {
    return this.read('dataCatalog', '/DataList', schemas.dataPlanSchema.array(), { network }, options);
  }

  /** `provider`: a cable provider (DSTV, GOTV, …), sent as `?provider=`; without it every bouquet. */
  cableCatalog(provider?: string, options: CallOptions = {}): Promise<CableBouquet[]> {
    return this.read('cableCatalog', '/CableTVList', schemas.cableBouquetSchema.array(), { provider }, options);
  }

  electricityCatalog(options: CallOptions = {}): Promise<ElectricityProvider[]> {
    return this.read('electricityCatalog', '/ElectricityList', schemas.electricityProviderSchema.array(), {}, options);
  }

  accountBalance(options: CallOptions = {}): Promise<AccountBalance> {
    return this.read('accountBalance', '/accountBalance', schemas.accountBalanceSchema, {}, options);
  }

  // ---------------------------------------------------------------- validation

  /** Throws `ServiceError` (`fix_input`) when the meter is unknown or its type does not match. */
  async validateMeter(request: MeterValidationRequest, options: CallOptions = {}): Promise<MeterValidation> {
    const answered = await this.http.request({
      endpoint: 'validateMeter',
      method: 'POST',
      path: '/validateMeter',
      body: request,
      schema: schemas.meterValidationSchema,
      signal: options.signal,
      onAnswered: options.onAnswered,
    });
    return this.unwrap('validateMeter', answered);
  }

  async validateSmartcard(request: SmartcardValidationRequest, options: CallOptions = {}): Promise<SmartcardValidation> {
    const answered = await this.http.request({
      endpoint: 'validateSmartcard',
      method: 'POST',
      path: '/validateSmartcard',
      body: request,
      schema: schemas.smartcardValidationSchema,
      signal: options.signal,
      onAnswered: options.onAnswered,
    });
    return this.unwrap('validateSmartcard', answered);
  }

  // ---------------------------------------------------------------- purchases

  /**
   * Buys airtime for a batch (at least one item). Resolves `success` when the batch was accepted
   * (HTTP 202, `00`; `data.references[i]` tracks `items[i]`), or the decoded `pending`/`failed`.
   * Throws `ServiceError` when the service refused the whole batch (400 fix_input, 401, 422
   * configuration, 429 do_not_resend, 503 after retries and the voucher retry), and
   * `UncertainOutcomeError` when the outcome is unknown (timeout, other 5xx): do not resend.
   */
  purchaseAirtime(items: AirtimeItem[], options: CallOptions = {}): Promise<PurchaseResult<BatchAccepted>> {
    return this.purchaseBatch('purchaseAirtime', '/purchaseAirtime', items, options);
  }

  /** As `purchaseAirtime`, for data bundles. */
  purchaseData(items: DataItem[], options: CallOptions = {}): Promise<PurchaseResult<BatchAccepted>> {
    return this.purchaseBatch('purchaseData', '/purchaseData', items, options);
  }

  /**
   * Buys an electricity token. `success` (HTTP 200) carries the token; `pending` (202/`01`):
   * requery `reference` no earlier than 2 min later; `failed` with `refunded: true`: declined
   * (HTTP 400: invalid, insufficient balance or provider decline; a debited wallet is refunded).
   * Throws `ServiceError` for 401/422/429 (`do_not_resend`: the same meter and amount is in
   * progress)/503 after retries, and `UncertainOutcomeError` when the outcome is unknown.
   */
  purchaseElectricity(body: ElectricityPurchase, options: CallOptions = {}): Promise<PurchaseResult<ElectricityResult>> {
    return this.purchaseSingle('purchaseElectricity', '/purchaseElectricity', body, schemas.electricityResultSchema, options);
  }

  /** As `purchaseElectricity`, for a cable TV subscription. */
  purchaseCableTV(body: CablePurchase, options: CallOptions = {}): Promise<PurchaseResult<CableResult>> {
    return this.purchaseSingle('purchaseCableTV', '/purchaseCableTV', body, schemas.cableResultSchema, options);
  }

  // ---------------------------------------------------------------- requery and logs

  /**
   * The outcome of a pending purchase (`orderId` = its requestReference, or an airtime/data item
   * reference). Retried on 502 (and timeouts). Throws `ServiceError`: 404 `not_found`, 425
   * `wait` (earlier than 2 min 1 s after the purchase), 429 `hand_to_support` (no more requeries).
   */
  async requery(orderId: string, options: CallOptions = {}): Promise<RequeryResult> {
    const answered = await this.http.request({
      endpoint: 'requery',
      method: 'GET',
      path: `/requeryTransaction/${encodeURIComponent(orderId)}`,
      schema: schemas.requeryResultSchema,
      signal: options.signal,
      onAnswered: options.onAnswered,
    });
    if (answered.result.kind === 'pending') return { status: 'PENDING', reference: answered.result.reference || orderId };
    const data = this.unwrap('requery', answered);
    return { ...data, reference: data.reference || orderId };
  }

  /** One page of the vending log. Follow `NextPage` with `logPage` (never assume numbering). */
  logEntries(query: LogQuery = {}, options: CallOptions = {}): Promise<PageObject<LogEntry>> {
    const q: Query = {
      page: query.page,
      perPage: query.perPage,
      startdate: query.startdate,
      enddate: query.enddate,
      download: query.download,
      status: query.status,
      type: query.type,
      network: query.network?.toLowerCase(),
      search: query.search,
    };
    return this.read('logEntries', '/logEntries', schemas.logPageSchema, q, options);
  }

  /**
   * The page at a `NextPage`/`PreviousPage` URL. Its path and query are requested under this
   * client's `baseUrl` (origin and path), so the token never goes to another host or path.
   */
  logPage(absoluteUrl: string, options: CallOptions = {}): Promise<PageObject<LogEntry>> {
    return this.read('logEntries', absoluteUrl, schemas.logPageSchema, {}, options);
  }

  /**
   * One page of the log in the service's download-ready format (`download=true`; the spec leaves
   * the format open, the built-in sandbox gives CSV). `at`: the first page's query, or a
   * `NextPage` URL (requested under this client's `baseUrl`, as `logPage`).
   */
  logDownloadPage(at: { perPage: number } | string, options: CallOptions = {}): Promise<schemas.LogDownloadPage> {
    if (typeof at === 'string') return this.read('logEntries', at, schemas.logDownloadPageSchema, {}, options);
    return this.read('logEntries', '/logEntries', schemas.logDownloadPageSchema, { page: 1, perPage: at.perPage, download: true }, options);
  }

  // ---------------------------------------------------------------- messaging
  // Shapes not shown by the spec: read by meaning (messagingAnswers.ts); null where not said.

  /** Sends an SMS (or a bulk SMS to `phoneBookId`). Costs money: never repeated automatically. */
  sendMessage(body: SendMessageBody, options: CallOptions = {}): Promise<MessageAnswer> {
    return this.write('sendMessage', '/sendMessage', body, answers.readSentMessage, options);
  }

  /** Creates a template; it needs approval for the coverage area before use. */
  createTemplate(body: CreateTemplateBody, options: CallOptions = {}): Promise<TemplateAnswer> {
    return this.write('createTemplate', '/createTemplates', body, answers.readCreatedTemplate, options);
  }

  getTemplates(options: CallOptions = {}): Promise<TemplateAnswer[]> {
    return this.read('getTemplates', '/getTemplates', answers.readTemplates, {}, options);
  }

  /** Sends a one-time code; keep `reference` to confirm it. */
  sendEvidence(body: SendEvidenceBody, options: CallOptions = {}): Promise<EvidenceSentAnswer> {
    return this.write('sendEvidence', '/sendEvidence', body, answers.readEvidenceSent, options);
  }

  /** Confirms a one-time code; a wrong, used or expired code throws `ServiceError` (`fix_input`) or answers `confirmed: false`. */
  confirmEvidence(body: { otp: string; reference: string }, options: CallOptions = {}): Promise<EvidenceConfirmedAnswer> {
    return this.write('confirmEvidence', '/confirmEvidence', body, answers.readEvidenceConfirmed, options);
  }

  /** POST /craetePhonebook (the path is spelled so by the service). */
  createPhonebook(body: { name: string; description: string }, options: CallOptions = {}): Promise<CreatedPhonebookAnswer> {
    return this.write('createPhonebook', '/craetePhonebook', body, answers.readCreatedPhonebook, options);
  }

  /** Adds contacts to `phoneBookId` (`?phoneBookId=`), or to the most recently created phonebook. */
  createContacts(contacts: { name: string; phoneNumber: string }[], phoneBookId?: number, options: CallOptions = {}): Promise<ContactsCreatedAnswer> {
    return this.write('createContacts', '/createContact', contacts, answers.readContactsCreated, options, { phoneBookId });
  }

  getPhonebooks(options: CallOptions = {}): Promise<PhonebookAnswer[]> {
    return this.read('getPhonebooks', '/getPhonebook', answers.readPhonebooks, {}, options);
  }

  /** One phonebook with its contacts (`?phoneBookId=`); null when the answer does not hold it. */
  getPhonebook(id: number, options: CallOptions = {}): Promise<PhonebookAnswer | null> {
    return this.read('getPhonebook', '/getPhonebook', (data, context) => answers.readPhonebook(id, data, context), { phoneBookId: id }, options);
  }

  getSenderIds(options: CallOptions = {}): Promise<SenderIdAnswer[]> {
    return this.read('getSenderIds', '/getSenderIds', answers.readSenderIds, {}, options);
  }

  messageStatus(reference: string, options: CallOptions = {}): Promise<MessageAnswer> {
    return this.read('messageStatus', `/MSQ/${encodeURIComponent(reference)}`, answers.readMessageStatus, {}, options);
  }

  /** One page of sent messages, newest first. */
  messageHistory(query: MessageHistoryQuery = {}, options: CallOptions = {}): Promise<HistoryPageAnswer> {
    return this.read('messageHistory', '/messageHistory', answers.readMessageHistory, { ...query }, options);
  }

  /** The message-history page at a `NextPage` URL (rebased on `baseUrl`, as `logPage`). */
  messageHistoryPage(absoluteUrl: string, options: CallOptions = {}): Promise<HistoryPageAnswer> {
    return this.read('messageHistory', absoluteUrl, answers.readMessageHistory, {}, options);
  }

  // ---------------------------------------------------------------- internals

  /** A GET: a zod schema for a documented shape, a reader function for a not-shown one. */
  private async read<T>(endpoint: EndpointName, path: string, shape: z.ZodType<T> | LooseReader<T>, query: Query, options: CallOptions): Promise<T> {
    const how = typeof shape === 'function' ? { reader: shape } : { schema: shape };
    const answered = await this.http.request({ endpoint, method: 'GET', path, query, ...how, signal: options.signal, onAnswered: options.onAnswered, pacer: options.pacer });
    return this.unwrap(endpoint, answered);
  }

  /** A messaging write (not-shown answer). */
  private async write<T>(endpoint: EndpointName, path: string, body: unknown, reader: LooseReader<T>, options: CallOptions, query: Query = {}): Promise<T> {
    const answered = await this.http.request({ endpoint, method: 'POST', path, query, body, reader, signal: options.signal, onAnswered: options.onAnswered });
    return this.unwrap(endpoint, answered);
  }

  /** Data of a success; a `ServiceError` for anything else. */
  private unwrap<T>(endpoint: EndpointName, { result, retried }: Answered<T>): T {
    if (result.kind === 'success') return result.data;
    if (result.kind === 'failed') {
      if (result.httpStatus >= 400) throw serviceErrorFor(endpoint, result.httpStatus, result.reason, { reference: result.reference, retried });
      // An `88` on a 2xx answer: the request was understood and refused, as a 400 would say.
      throw serviceErrorFor(endpoint, 400, result.reason, { reference: result.reference, answeredStatus: result.httpStatus });
    }
    throw malformedError(endpoint, result.httpStatus, 'a pending answer where a result was expected');
  }

  private async purchaseBatch<I extends { voucherCode?: string }>(
    endpoint: 'purchaseAirtime' | 'purchaseData',
    path: string,
    items: I[],
    options: CallOptions,
  ): Promise<PurchaseResult<BatchAccepted>> {
    const spec: RequestSpec<BatchAccepted> = {
      endpoint,
      method: 'POST',
      path,
      body: items,
      schema: schemas.batchAcceptedSchema,
      signal: options.signal,
      onAnswered: options.onAnswered,
    };
    let answered = await this.http.request(spec);
    let voucherDropped = false;
    const hasVoucher = items.some((item) => typeof item.voucherCode === 'string' && item.voucherCode !== '');
    if (answered.result.kind === 'failed' && answered.result.httpStatus === 503 && hasVoucher) {
      const withoutVoucher = items.map((item) => {
        const copy: Partial<I> = { ...item };
        delete copy.voucherCode;
        return copy;
      });
      answered = await this.http.request({ ...spec, body: withoutVoucher, attempts: 1 });
      answered = { ...answered, retried: true };
      voucherDropped = true;
    }
    const { result } = answered;
    if (result.kind === 'failed' && result.httpStatus >= 400) {
      throw serviceErrorFor(endpoint, result.httpStatus, result.reason, { reference: result.reference, retried: answered.retried });
    }
    return voucherDropped ? { ...result, voucherDropped } : result;
  }

  private async purchaseSingle<T>(
    endpoint: 'purchaseElectricity' | 'purchaseCableTV',
    path: string,
    body: ElectricityPurchase | CablePurchase,
    schema: z.ZodType<T>,
    options: CallOptions,
  ): Promise<PurchaseResult<T>> {
    const answered = await this.http.request({ endpoint, method: 'POST', path, body, schema, signal: options.signal, onAnswered: options.onAnswered });
    const { result } = answered;
    if (result.kind === 'failed' && result.httpStatus === 400) return { ...result, refunded: true };
    if (result.kind === 'failed' && result.httpStatus > 400) {
      throw serviceErrorFor(endpoint, result.httpStatus, result.reason, { reference: result.reference, retried: answered.retried });
    }
    return result;
  }
}

export { ServiceError, UncertainOutcomeError, RequestCancelledError };
