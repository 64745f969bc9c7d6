/**
 * Envelope helpers and the one error type handlers throw. Every answer of the sandbox, success
 * or failure, is the spec's envelope; failures carry `88`, `Unsucessfull` and a reason string.
 */
import { FAILURE_MESSAGE, type Envelope, type GatewayStatus } from '../shared/wire';

export class HttpError extends Error {
  constructor(
    readonly status: number,
    readonly reason: string,
    readonly headers: Record<string, string> = {},
  ) {
    super(reason);
  }
}

export interface Reply {
  status: number;
  body: Envelope<unknown>;
  headers?: Record<string, string>;
}

export function ok<T>(requestReference: string, data: T, message: string, status = 200, gatewayStatus: GatewayStatus = '00'): Reply {
  return { status, body: { gatewayStatus, gatewayMessage: message, requestReference, data } };
}

export function failure(requestReference: string, status: number, reason: string, headers?: Record<string, string>): Reply {
  return { status, body: { gatewayStatus: '88', gatewayMessage: FAILURE_MESSAGE, requestReference, data: reason }, headers };
}
