import { describe, expect, it } from 'vitest';
import { AppError } from '../../../src/shared/appError';
import { registerSecret } from '../../../src/main/redact';
import { actionFor, ServiceError, serviceErrorFor, UncertainOutcomeError, type EndpointName, type ServiceAction } from '../../../src/main/api/serviceErrors';

describe('the spec error table as actions', () => {
  const table: [EndpointName, number, ServiceAction][] = [
    ['purchaseData', 400, 'fix_input'],
    ['purchaseData', 422, 'configuration'],
    ['purchaseData', 503, 'retry_later'],
    ['purchaseAirtime', 400, 'fix_input'],
    ['purchaseAirtime', 422, 'configuration'],
    ['purchaseAirtime', 429, 'do_not_resend'],
    ['purchaseAirtime', 503, 'retry_later'],
    ['purchaseElectricity', 400, 'fix_input'],
    ['purchaseElectricity', 429, 'do_not_resend'],
    ['purchaseCableTV', 400, 'fix_input'],
    ['requery', 404, 'not_found'],
    ['requery', 425, 'wait'],
    ['requery', 429, 'hand_to_support'],
    ['requery', 502, 'retry_later'],
    ['accountBalance', 401, 'credentials'],
    ['logEntries', 503, 'retry_later'],
    ['logEntries', 418, 'unknown'],
  ];
  it.each(table)('%s HTTP %i → %s', (endpoint, status, action) => {
    expect(actionFor(endpoint, status)).toBe(action);
    const error = serviceErrorFor(endpoint, status, 'reason text');
    expect(error).toBeInstanceOf(ServiceError);
    expect(error).toBeInstanceOf(AppError);
    expect(error.action).toBe(action);
    expect(error.httpStatus).toBe(status);
    expect(error.reason).toBe('reason text');
    expect(error.code).toBe(`service_${action}`);
    expect(error.message.length).toBeGreaterThan(10);
    expect(error.hint).toBeTruthy();
  });

  it('says a 503 will be retried, then that it did not recover', () => {
    expect(serviceErrorFor('purchaseAirtime', 503, '').message).toBe('Airtime vending is temporarily unavailable; vendesk will retry shortly.');
    const after = serviceErrorFor('purchaseAirtime', 503, 'airtime vending temporarily unavailable across all servers', { retried: true });
    expect(after.message).toMatch(/did not recover after vendesk retried/);
    expect(after.hint).toMatch(/Nothing was charged/);
  });

  it('tells the user an electricity or cable decline is refunded', () => {
    const error = serviceErrorFor('purchaseElectricity', 400, 'declined by provider');
    expect(error.refunded).toBe(true);
    expect(error.message).toMatch(/refunded automatically/);
    expect(serviceErrorFor('purchaseAirtime', 400, 'x').refunded).toBe(false);
  });

  it('hands an exhausted requery to support and tells a duplicate purchase not to resend', () => {
    expect(serviceErrorFor('requery', 429, 'maximum requery attempts reached').hint).toMatch(/support/);
    expect(serviceErrorFor('purchaseAirtime', 429, 'in progress').hint).toMatch(/Do not send it again/);
  });

  it('never carries a registered token, in message, hint, reason or details', () => {
    const token = 'sk_live_abcdef1234567890';
    registerSecret(token);
    const error = serviceErrorFor('accountBalance', 401, `unknown token ${token} (Bearer ${token})`);
    const everything = JSON.stringify({ m: error.message, h: error.hint, r: error.reason, d: error.details, s: error.toShape() });
    expect(everything).not.toContain(token);
    expect(everything).toContain('[redacted]');
  });

  it('describes an uncertain purchase so nobody resends it', () => {
    const error = new UncertainOutcomeError('purchaseElectricity', 'timeout', null, 'no answer within 50 ms');
    expect(error).toBeInstanceOf(AppError);
    expect(error.code).toBe('uncertain_outcome');
    expect(error.message).toBe('Electricity vending did not answer in time; it may have gone through and been charged.');
    expect(error.hint).toMatch(/Do not send it again/);
    expect(error.uncertainCause).toBe('timeout');
  });
});
