/** The service client: import from here. */
export {
  VendingClient,
  type VendingClientOptions,
  type CallOptions,
  type PurchaseResult,
  type PurchaseNotes,
  type MeterValidationRequest,
  type SmartcardValidationRequest,
  type MessageHistoryQuery,
} from './vendingClient';
export { decodeEnvelope, gatewayKind, failureReason, MalformedResponseError, type DecodedResult } from './decodeEnvelope';
export {
  ServiceError,
  UncertainOutcomeError,
  RequestCancelledError,
  actionFor,
  serviceErrorFor,
  ENDPOINTS,
  type ServiceAction,
  type EndpointKind,
  type EndpointName,
  type UncertainCause,
} from './serviceErrors';
export { parseLogEntry, utcTimestampToIso, type ParsedLogEntry } from './parseLogEntry';
export { backoffDelay, type RetryOptions } from './retryBackoff';
