/**
 * Jittered exponential backoff for the calls that are safe to repeat (see `VendingClient`).
 */
export interface RetryOptions {
  /** Total tries including the first (default 3). */
  attempts?: number;
  /** Delay scale before the first retry (default 500 ms). */
  baseDelayMs?: number;
  /** Upper bound of one delay (default 8 s). */
  maxDelayMs?: number;
}

export type ResolvedRetry = Required<RetryOptions>;

export const DEFAULT_RETRY: ResolvedRetry = { attempts: 3, baseDelayMs: 500, maxDelayMs: 8000 };

export function resolveRetry(options: RetryOptions | undefined): ResolvedRetry {
  const attempts = Math.max(1, Math.floor(options?.attempts ?? DEFAULT_RETRY.attempts));
  const baseDelayMs = Math.max(0, options?.baseDelayMs ?? DEFAULT_RETRY.baseDelayMs);
  const maxDelayMs = Math.max(baseDelayMs, options?.maxDelayMs ?? DEFAULT_RETRY.maxDelayMs);
  return { attempts, baseDelayMs, maxDelayMs };
}

/**
 * Delay before retry number `retry` (0 for the first retry): "equal jitter", half of
 * `min(max, base·2^retry)` fixed and half random, so clients that failed together do not
 * come back together, yet no delay collapses to zero. A server's Retry-After (ms) wins when it
 * is longer, still capped by `maxDelayMs`.
 */
export function backoffDelay(retry: number, policy: ResolvedRetry, retryAfterMs: number | null = null, random: () => number = Math.random): number {
  const ceiling = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** retry);
  const jittered = ceiling / 2 + random() * (ceiling / 2);
  const wanted = retryAfterMs !== null && retryAfterMs > jittered ? retryAfterMs : jittered;
  return Math.round(Math.min(policy.maxDelayMs, wanted));
}

/** Retry-After as milliseconds (seconds or an HTTP date), or null. */
export function parseRetryAfter(value: string | null, now: number = Date.now()): number | null {
  if (!value) return null;
  const trimmed = value.trim();
  if (/^\d+(\.\d+)?$/.test(trimmed)) return Math.round(Number(trimmed) * 1000);
  const at = Date.parse(trimmed);
  return Number.isNaN(at) ? null : Math.max(0, at - now);
}

/** Resolves after `ms`, or rejects with the signal's reason when it aborts first. */
export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) {
      reject(signal.reason);
      return;
    }
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal?.reason);
    };
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}
