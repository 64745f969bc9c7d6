/**
 * One requery of a purchase the service accepted, and what its answer means: the one rule for a
 * single electricity or cable purchase (`pending/requeryPurchase.ts`) and for a bulk item
 * (`buying/itemOutcomes.ts`), each of which writes the verdict into its own record.
 *
 * | Answer                         | Verdict                                                          |
 * |--------------------------------|------------------------------------------------------------------|
 * | 200 SUCCESS                    | `success` (with the token and units of prepaid electricity)      |
 * | 200 FAILED                     | `failed`: refunded by the service                                 |
 * | 200 PENDING                    | `pending`: ask again after the backoff (1, 2, 4 … 32 min, then hourly) |
 * | 425 too early                  | `later`: when the service says (Retry-After, else 30 s)          |
 * | 502 provider unreachable       | `later`: in a minute                                             |
 * | another refusal                | `later`: in five minutes                                         |
 * | 429 attempts exhausted         | `support`: the service answers no more status checks              |
 * | 404 no such transaction        | `not_found`                                                      |
 *
 * A failure that is not the service's answer (the network, a bug) is thrown, as the client threw it.
 */
import type { RequeryResult } from '../../shared/wire';
import { requeryBackoffMs, RETRY_LATER_MS, TOO_EARLY_FALLBACK_MS, waitFromReason } from './requeryBackoff';
import { ServiceError } from './serviceErrors';
import type { VendingClient } from './vendingClient';

export type RequeryVerdict =
  | { kind: 'success'; token: string | null; units: number | null }
  | { kind: 'failed' }
  /** Still PENDING: the `attempts`-th answer; ask again in `nextInMs`. */
  | { kind: 'pending'; nextInMs: number }
  /** No answer about the purchase this time (`why`); ask again in `nextInMs`, no attempt counted. */
  | { kind: 'later'; why: 'too_early' | 'provider_unreachable' | 'refused'; nextInMs: number; error: ServiceError }
  | { kind: 'support'; error: ServiceError }
  | { kind: 'not_found'; error: ServiceError };

/** Asks the service about `reference`; `attempts` is the number of this answer if it is one (1-based), for the backoff. */
export async function askRequery(client: Pick<VendingClient, 'requery'>, reference: string, attempts: number): Promise<RequeryVerdict> {
  let answer: RequeryResult;
  try {
    answer = await client.requery(reference);
  } catch (error) {
    if (!(error instanceof ServiceError)) throw error;
    switch (error.action) {
      case 'wait':
        return { kind: 'later', why: 'too_early', nextInMs: waitFromReason(error.reason) ?? TOO_EARLY_FALLBACK_MS, error };
      case 'retry_later':
        return { kind: 'later', why: 'provider_unreachable', nextInMs: RETRY_LATER_MS, error };
      case 'hand_to_support':
        return { kind: 'support', error };
      case 'not_found':
        return { kind: 'not_found', error };
      default:
        return { kind: 'later', why: 'refused', nextInMs: 5 * RETRY_LATER_MS, error };
    }
  }
  if (answer.status === 'SUCCESS') return { kind: 'success', token: answer.token || null, units: answer.units ?? null };
  if (answer.status === 'FAILED') return { kind: 'failed' };
  return { kind: 'pending', nextInMs: requeryBackoffMs(attempts) };
}
