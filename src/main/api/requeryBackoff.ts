/**
 * When a pending purchase is checked. The service answers a requery only from 2 minutes and
 * 1 second after the purchase (HTTP 425 before); after each PENDING answer vendesk waits longer:
 * 1, 2, 4, 8, 16, 32 minutes, then every hour. A 502 (provider unreachable) is tried again after
 * a minute; a 425 after the wait the service asks for (its Retry-After, or 30 s).
 */
export const REQUERY_EARLIEST_MS = 121_000;
const STEP_MS = 60_000;
const CAP_MS = 60 * 60_000;
export const RETRY_LATER_MS = 60_000;
export const TOO_EARLY_FALLBACK_MS = 30_000;

export function firstRequeryDueMs(purchasedMs: number): number {
  return purchasedMs + REQUERY_EARLIEST_MS;
}

/** The wait after the `attempts`-th PENDING answer (1-based). */
export function requeryBackoffMs(attempts: number): number {
  return Math.min(CAP_MS, STEP_MS * 2 ** Math.max(0, attempts - 1));
}

/** "try again in 37 s" (the sandbox's and service's wording) as milliseconds, else null. */
export function waitFromReason(reason: string): number | null {
  const m = /in\s+(\d+)\s*s\b/i.exec(reason);
  return m ? Number(m[1]) * 1000 : null;
}
