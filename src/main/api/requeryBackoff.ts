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

/**
 * When the service answers a requery of a purchase: from 2 min 1 s after it (HTTP 425 before), and
 * while it has answered no check yet, not before the moment it last asked vendesk to wait for
 * (a 425's "try again in N s", a 502's "retry after a short delay": the next check then). Once it
 * has answered one, it answers at any time: vendesk's 1, 2, 4… minutes are its own pace, which a
 * person may overrule ("Requery now", `vendesk requery`). No one asks before this moment.
 */
export function serviceAnswersFromMs(purchasedMs: number, answeredChecks: number, nextCheckMs: number | null): number {
  const first = firstRequeryDueMs(purchasedMs);
  return answeredChecks === 0 && nextCheckMs !== null ? Math.max(first, nextCheckMs) : first;
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
