/**
 * What the caller should do about each failure the service can give. Every row of the spec's
 * error table maps to one `ServiceAction`; messages say what happened and the hint what to do.
 * Messages never contain the token: every text passes through `redactSecrets`.
 */
import { AppError } from '../../shared/appError';
import type { ServiceAction } from '../../shared/errorCodes';
import { redactSecrets } from '../redact';

export type { ServiceAction };

/**
 * How a call may be repeated. `read`: safe to repeat (GETs and validations). `purchase`: moves
 * money; only a 503 (nothing was posted) may be repeated. `write`: a messaging or phonebook
 * change (it may send an SMS or cost money); never repeated automatically.
 */
export type EndpointKind = 'read' | 'purchase' | 'write';

export type EndpointName =
  | 'airtimeCatalog'
  | 'dataCatalog'
  | 'cableCatalog'
  | 'electricityCatalog'
  | 'accountBalance'
  | 'validateMeter'
  | 'validateSmartcard'
  | 'purchaseAirtime'
  | 'purchaseData'
  | 'purchaseElectricity'
  | 'purchaseCableTV'
  | 'requery'
  | 'logEntries'
  | 'sendMessage'
  | 'createTemplate'
  | 'getTemplates'
  | 'sendEvidence'
  | 'confirmEvidence'
  | 'createPhonebook'
  | 'createContacts'
  | 'getPhonebooks'
  | 'getPhonebook'
  | 'getSenderIds'
  | 'messageStatus'
  | 'messageHistory';

export interface EndpointInfo {
  kind: EndpointKind;
  /** What the user calls it, as the subject of a sentence: "Airtime vending". */
  subject: string;
}

export const ENDPOINTS: Record<EndpointName, EndpointInfo> = {
  airtimeCatalog: { kind: 'read', subject: 'The airtime catalog' },
  dataCatalog: { kind: 'read', subject: 'The data plan catalog' },
  cableCatalog: { kind: 'read', subject: 'The cable TV catalog' },
  electricityCatalog: { kind: 'read', subject: 'The electricity provider list' },
  accountBalance: { kind: 'read', subject: 'The wallet balance' },
  validateMeter: { kind: 'read', subject: 'Meter validation' },
  validateSmartcard: { kind: 'read', subject: 'Smartcard validation' },
  purchaseAirtime: { kind: 'purchase', subject: 'Airtime vending' },
  purchaseData: { kind: 'purchase', subject: 'Data vending' },
  purchaseElectricity: { kind: 'purchase', subject: 'Electricity vending' },
  purchaseCableTV: { kind: 'purchase', subject: 'Cable TV vending' },
  requery: { kind: 'read', subject: 'The status check (requery)' },
  logEntries: { kind: 'read', subject: 'The transaction log' },
  sendMessage: { kind: 'write', subject: 'Sending the message' },
  createTemplate: { kind: 'write', subject: 'Creating the template' },
  getTemplates: { kind: 'read', subject: 'The template list' },
  sendEvidence: { kind: 'write', subject: 'Sending the one-time code' },
  confirmEvidence: { kind: 'write', subject: 'Confirming the one-time code' },
  createPhonebook: { kind: 'write', subject: 'Creating the phonebook' },
  createContacts: { kind: 'write', subject: 'Adding the contacts' },
  getPhonebooks: { kind: 'read', subject: 'The phonebook list' },
  getPhonebook: { kind: 'read', subject: 'The phonebook' },
  getSenderIds: { kind: 'read', subject: 'The sender ID list' },
  messageStatus: { kind: 'read', subject: 'The message status' },
  messageHistory: { kind: 'read', subject: 'The message history' },
};

const isPurchase = (endpoint: EndpointName): boolean => ENDPOINTS[endpoint].kind === 'purchase';
const declinesAreRefunded = (endpoint: EndpointName): boolean => endpoint === 'purchaseElectricity' || endpoint === 'purchaseCableTV';

/** What to check after an electricity or cable TV purchase was declined (the wallet is refunded). */
export function declinedPurchaseHint(kind: 'electricity' | 'cable'): string {
  return kind === 'electricity'
    ? 'Check the meter number and whether the meter is PREPAID or POSTPAID, the amount and the wallet balance, then try again.'
    : 'Check the smartcard number, the bouquet and the wallet balance, then try again.';
}

export interface ServiceErrorInit {
  endpoint: EndpointName;
  /** null when no HTTP answer was received (timeout, network). */
  httpStatus: number | null;
  /** The service's own reason text (the `data` string of an `88` answer), or a transport reason. */
  reason: string;
  action: ServiceAction;
  message: string;
  hint: string;
  reference?: string;
  /** Electricity and cable declines (HTTP 400): a debited wallet is refunded automatically. */
  refunded?: boolean;
}

/** The service answered, or could not be reached, and the request was not carried out. */
export class ServiceError extends AppError {
  readonly endpoint: EndpointName;
  readonly httpStatus: number | null;
  readonly reason: string;
  readonly action: ServiceAction;
  readonly reference: string;
  readonly refunded: boolean;

  constructor(init: ServiceErrorInit) {
    const reason = redactSecrets(init.reason);
    super(`service_${init.action}`, redactSecrets(init.message), redactSecrets(init.hint), {
      endpoint: init.endpoint,
      httpStatus: init.httpStatus,
      reason,
      action: init.action,
      ...(init.reference ? { reference: init.reference } : {}),
    });
    this.name = 'ServiceError';
    this.endpoint = init.endpoint;
    this.httpStatus = init.httpStatus;
    this.reason = reason;
    this.action = init.action;
    this.reference = init.reference ?? '';
    this.refunded = init.refunded ?? false;
  }
}

export type UncertainCause = 'timeout' | 'network' | 'cancelled' | 'server_error' | 'malformed_answer';

/**
 * A purchase (or a paid message) left and no usable answer came back: it may have been carried
 * out and charged. Never resend it blindly; settle it from the transaction log or by requery.
 */
export class UncertainOutcomeError extends AppError {
  readonly endpoint: EndpointName;
  readonly uncertainCause: UncertainCause;
  readonly httpStatus: number | null;

  constructor(endpoint: EndpointName, cause: UncertainCause, httpStatus: number | null, detail: string) {
    const subject = ENDPOINTS[endpoint].subject;
    const what: Record<UncertainCause, string> = {
      timeout: 'did not answer in time',
      network: 'could not be completed because the connection failed',
      cancelled: 'was cancelled after the request had been sent',
      server_error: `failed with a server error (HTTP ${httpStatus ?? '?'})`,
      malformed_answer: 'answered in a form vendesk could not read',
    };
    const paid = isPurchase(endpoint) ? 'it may have gone through and been charged' : 'it may have been carried out (and charged)';
    super(
      'uncertain_outcome',
      redactSecrets(`${subject} ${what[cause]}; ${paid}.`),
      isPurchase(endpoint)
        ? 'Do not send it again. vendesk settles it from the transaction log (sync) or a requery; check there before buying again.'
        : 'Check the message history or outbox before sending it again.',
      { endpoint, cause, httpStatus, detail: redactSecrets(detail) },
    );
    this.name = 'UncertainOutcomeError';
    this.endpoint = endpoint;
    this.uncertainCause = cause;
    this.httpStatus = httpStatus;
  }
}

/** The caller's AbortSignal fired before anything that could be charged was sent. */
export class RequestCancelledError extends AppError {
  constructor(endpoint: EndpointName) {
    super('cancelled', `${ENDPOINTS[endpoint].subject} was cancelled.`, undefined, { endpoint });
    this.name = 'RequestCancelledError';
  }
}

/** Which action each (endpoint, HTTP status) pair calls for: the spec's error table. */
export function actionFor(endpoint: EndpointName, httpStatus: number): ServiceAction {
  switch (httpStatus) {
    case 400:
      return 'fix_input';
    case 401:
    case 403:
      return 'credentials';
    case 404:
      return 'not_found';
    case 422:
      return 'configuration';
    case 425:
      return 'wait';
    case 429:
      if (endpoint === 'requery') return 'hand_to_support';
      if (isPurchase(endpoint)) return 'do_not_resend';
      return 'retry_later';
    case 500:
    case 502:
    case 503:
    case 504:
      return 'retry_later';
    default:
      return 'unknown';
  }
}

function quoteReason(reason: string): string {
  return reason ? ` (the service said: "${reason}")` : '';
}

/**
 * The error for an HTTP failure. `retried` says whether vendesk already retried (then the message
 * does not promise another automatic retry).
 */
export function serviceErrorFor(
  endpoint: EndpointName,
  httpStatus: number,
  reason: string,
  options: { reference?: string; retried?: boolean; answeredStatus?: number } = {},
): ServiceError {
  const action = actionFor(endpoint, httpStatus);
  const subject = ENDPOINTS[endpoint].subject;
  const said = quoteReason(reason);
  // `answeredStatus`: the status actually received when it differs from the row applied (an `88` on a 200).
  const base = { endpoint, httpStatus: options.answeredStatus ?? httpStatus, reason, action, reference: options.reference };
  switch (action) {
    case 'retry_later':
      return new ServiceError({
        ...base,
        message: options.retried
          ? `${subject} is temporarily unavailable and did not recover after vendesk retried${said}.`
          : `${subject} is temporarily unavailable; vendesk will retry shortly${said}.`,
        hint: isPurchase(endpoint) ? 'Nothing was charged. Try again in a few minutes.' : 'Try again in a few minutes; if it persists, check the service status.',
      });
    case 'wait':
      return new ServiceError({
        ...base,
        message: `It is too early to check this transaction${said}; the service answers a requery only 2 minutes after the purchase.`,
        hint: 'Wait at least 2 minutes after the purchase; vendesk checks again automatically.',
      });
    case 'hand_to_support':
      return new ServiceError({
        ...base,
        message: `The service will not answer more status checks for this transaction${said}.`,
        hint: "Stop checking and hand it to the service provider's support with the reference; they resolve it manually. Do not buy it again.",
      });
    case 'do_not_resend':
      return new ServiceError({
        ...base,
        message: `${subject}: the same purchase (same recipient and amount) is already in progress${said}.`,
        hint: 'Do not send it again. Wait for the first one to finish and check its outcome in Transactions.',
      });
    case 'fix_input':
      if (declinesAreRefunded(endpoint)) {
        return new ServiceError({
          ...base,
          refunded: true,
          message: `${subject} was declined${said}. Any amount debited from the wallet is refunded automatically.`,
          hint: declinedPurchaseHint(endpoint === 'purchaseElectricity' ? 'electricity' : 'cable'),
        });
      }
      return new ServiceError({
        ...base,
        message: `${subject} was refused: the request is not valid${said}.`,
        hint: isPurchase(endpoint)
          ? 'Nothing was charged. Correct the phone number, product code, network or amount (use the values of the Catalog page), then try again.'
          : 'Correct the values and try again.',
      });
    case 'not_found':
      return new ServiceError({
        ...base,
        message: endpoint === 'requery' ? `The service has no transaction with this reference${said}.` : `${subject}: not found${said}.`,
        hint: endpoint === 'requery' ? 'Check the reference; if the purchase was never accepted, nothing was charged.' : 'Check the reference or id and try again.',
      });
    case 'configuration':
      return new ServiceError({
        ...base,
        message: `${subject} is not possible: your organisation is not configured for it${said}.`,
        hint: 'Nothing was charged. Ask the service provider to enable vending (an active NGN vending account) for your organisation.',
      });
    case 'credentials':
      return new ServiceError({
        ...base,
        message: "The service refused vendesk's API token (HTTP 401).",
        hint: 'Check the token in Settings → Connection, or ask your administrator for a new one.',
      });
    default:
      return new ServiceError({
        ...base,
        message: `${subject} failed with HTTP ${httpStatus}${said}.`,
        hint: 'Try again later; if it persists, contact support with the time of the error.',
      });
  }
}

/** A read that got no answer (timeout or network error), after its retries. */
export function unreachableError(endpoint: EndpointName, cause: 'timeout' | 'network', detail: string): ServiceError {
  const subject = ENDPOINTS[endpoint].subject;
  return new ServiceError({
    endpoint,
    httpStatus: null,
    reason: detail,
    action: 'retry_later',
    message: cause === 'timeout' ? `${subject} did not answer in time.` : `${subject} could not be reached (${detail}).`,
    hint: isPurchase(endpoint)
      ? 'Nothing was sent, so nothing was charged. Check the internet connection and the service address, then try again.'
      : 'Check the internet connection and the service address in Settings, then try again.',
  });
}

/** A 2xx answer that could not be read, for a call that is safe to repeat. */
export function malformedError(endpoint: EndpointName, httpStatus: number, problem: string): ServiceError {
  return new ServiceError({
    endpoint,
    httpStatus,
    reason: problem,
    action: 'unknown',
    message: `${ENDPOINTS[endpoint].subject} answered in a form vendesk could not read (${problem}).`,
    hint: 'Try again later; if it persists, check that the service address points at the vending service.',
  });
}
