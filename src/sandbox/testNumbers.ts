/**
 * Deterministic outcomes by number, like a payment provider's test mode (docs/sandbox.md).
 *
 * | number ends | applies to              | outcome                                                       |
 * |-------------|-------------------------|---------------------------------------------------------------|
 * | 5555        | meter                   | POSTPAID meter; PREPAID validation or purchase answers 400     |
 * | 4444        | meter                   | takes at least ₦5,000 (a debt being recovered); less: 400      |
 * | 0000        | meter, smartcard        | pending (202, 01); SUCCESS from 2 min 1 s (token, units)       |
 * | 1111        | meter, smartcard        | pending; FAILED from 2 min 1 s, wallet refunded                |
 * | 2222        | meter, smartcard        | pending for good                                               |
 * | 9999        | meter, smartcard        | declined: 400, debited then refunded                           |
 * | 9999        | phone (airtime, data)   | accepted (202), then FAILED after 5 s and refunded             |
 * | other       | all                     | success (electricity/cable at once; airtime/data after 5 s)    |
 */

export const REQUERY_EARLIEST_MS = 121_000;
export const CREDIT_DELAY_MS = 5_000;
export const MAX_REQUERIES = 5;

export type AccountOutcome = 'SUCCESS' | 'PENDING_SUCCESS' | 'PENDING_FAILED' | 'PENDING_FOREVER' | 'DECLINED';

export function accountOutcome(account: string): AccountOutcome {
  if (account.endsWith('0000')) return 'PENDING_SUCCESS';
  if (account.endsWith('1111')) return 'PENDING_FAILED';
  if (account.endsWith('2222')) return 'PENDING_FOREVER';
  if (account.endsWith('9999')) return 'DECLINED';
  return 'SUCCESS';
}

export function isPostpaidMeter(meter: string): boolean {
  return meter.endsWith('5555');
}

/** What a meter ending 4444 takes at least, in Naira (its disco may take less of other meters). */
export const RAISED_METER_MINIMUM_NAIRA = 5_000;

/** The least a meter accepts, in Naira: its disco's minimum, or more for a meter ending 4444. */
export function meterMinimumNaira(meter: string, discoMinimumNaira: number): number {
  return meter.endsWith('4444') ? Math.max(discoMinimumNaira, RAISED_METER_MINIMUM_NAIRA) : discoMinimumNaira;
}

export function phoneFails(localPhone: string): boolean {
  return localPhone.endsWith('9999');
}
