/**
 * A polite pace for many reads of one service at once (the log sync's pages): at most
 * `concurrency` requests in flight, at most `maxPerSecond` request starts a second, and a shared
 * back-off when the service says it is overloaded.
 *
 * - Every attempt waits for a turn (`acquire`) and reports how it went (`Turn.done`).
 * - An answer of 429 or 5xx, or a failed connection, pauses every turn: for the `Retry-After` the
 *   service asked (up to MAX_RETRY_AFTER_MS), else a jittered exponential delay that grows with
 *   each failure in a row. 429 and 503 also halve the requests in flight (at least one); each
 *   run of successes as long as the current limit adds one back, up to `concurrency`
 *   (additive increase, multiplicative decrease, as TCP does).
 * - Request starts are spaced at least 1000 / `maxPerSecond` ms apart.
 *
 * The client repeats a paced read up to `attempts` times when the service answers 429 or 5xx,
 * and as often as an unpaced read when it does not answer at all (see VendingClient.request); the
 * caller's AbortSignal ends a wait at once.
 */
import { backoffDelay, resolveRetry, type ResolvedRetry } from './retryBackoff';

export interface PacerOptions {
  /** Requests in flight at most (1 or more). */
  concurrency: number;
  /** Request starts per second at most. */
  maxPerSecond: number;
  /** Tries of one request, the first included, on 429/5xx/connection failures (default 8). */
  attempts?: number;
  /** Back-off without a Retry-After: first delay scale and ceiling (default 500 ms, 30 s). */
  baseDelayMs?: number;
  maxDelayMs?: number;
}

/** A Retry-After longer than this is not waited for in one go (the request is tried again then). */
export const MAX_RETRY_AFTER_MS = 5 * 60_000;

export interface Turn {
  /**
   * `status`: the HTTP status answered, null when no answer came (connection failed, timeout),
   * or 0 when the caller cancelled (the turn is given back, nothing learnt).
   */
  done(status: number | null, retryAfterMs?: number | null): void;
}

interface Waiter {
  resolve: (turn: Turn) => void;
  reject: (reason: unknown) => void;
  signal?: AbortSignal;
  onAbort?: () => void;
}

export interface PacerState {
  inFlight: number;
  limit: number;
  /** Local epoch ms until which no request starts (0: not paused). */
  pausedUntil: number;
  /** Answers of 429 or 5xx (or no answer) seen so far. */
  pushedBack: number;
}

export class RequestPacer {
  readonly attempts: number;
  private readonly maxConcurrency: number;
  private readonly spacingMs: number;
  private readonly backoff: ResolvedRetry;
  private limit: number;
  private inFlight = 0;
  private successes = 0;
  private failuresInRow = 0;
  private pushedBack = 0;
  private pausedUntil = 0;
  private nextStartAt = 0;
  private readonly queue: Waiter[] = [];
  private timer: NodeJS.Timeout | null = null;

  constructor(
    options: PacerOptions,
    private readonly now: () => number = Date.now,
  ) {
    this.maxConcurrency = Math.max(1, Math.floor(options.concurrency));
    this.limit = this.maxConcurrency;
    this.spacingMs = options.maxPerSecond > 0 ? 1000 / options.maxPerSecond : 0;
    this.attempts = Math.max(1, Math.floor(options.attempts ?? 8));
    this.backoff = resolveRetry({ attempts: this.attempts, baseDelayMs: options.baseDelayMs ?? 500, maxDelayMs: options.maxDelayMs ?? 30_000 });
  }

  state(): PacerState {
    return { inFlight: this.inFlight, limit: this.limit, pausedUntil: this.pausedUntil, pushedBack: this.pushedBack };
  }

  /** Resolves when this request may start; rejects with the signal's reason if it aborts first. */
  acquire(signal?: AbortSignal): Promise<Turn> {
    if (signal?.aborted) return Promise.reject(signal.reason);
    return new Promise<Turn>((resolve, reject) => {
      const waiter: Waiter = { resolve, reject, signal };
      if (signal) {
        waiter.onAbort = () => {
          const i = this.queue.indexOf(waiter);
          if (i >= 0) this.queue.splice(i, 1);
          reject(signal.reason);
          this.pump();
        };
        signal.addEventListener('abort', waiter.onAbort, { once: true });
      }
      this.queue.push(waiter);
      this.pump();
    });
  }

  private pump(): void {
    if (this.timer) {
      clearTimeout(this.timer);
      this.timer = null;
    }
    while (this.queue.length > 0 && this.inFlight < this.limit) {
      const now = this.now();
      const at = Math.max(this.pausedUntil, this.nextStartAt);
      if (at > now) {
        this.timer = setTimeout(() => {
          this.timer = null;
          this.pump();
        }, at - now);
        return;
      }
      const waiter = this.queue.shift() as Waiter;
      if (waiter.signal && waiter.onAbort) waiter.signal.removeEventListener('abort', waiter.onAbort);
      this.inFlight++;
      this.nextStartAt = now + this.spacingMs;
      let finished = false;
      waiter.resolve({
        done: (status, retryAfterMs = null) => {
          if (finished) return;
          finished = true;
          this.inFlight--;
          this.settle(status, retryAfterMs);
          this.pump();
        },
      });
    }
  }

  private settle(status: number | null, retryAfterMs: number | null): void {
    if (status === 0) return;
    const overloaded = status === null || status === 429 || status >= 500;
    if (!overloaded) {
      this.failuresInRow = 0;
      if (++this.successes >= this.limit && this.limit < this.maxConcurrency) {
        this.limit++;
        this.successes = 0;
      }
      return;
    }
    this.pushedBack++;
    this.successes = 0;
    if (status === 429 || status === 503) this.limit = Math.max(1, Math.floor(this.limit / 2));
    const delay = retryAfterMs !== null && retryAfterMs !== undefined ? Math.min(MAX_RETRY_AFTER_MS, retryAfterMs) : backoffDelay(this.failuresInRow, this.backoff);
    this.failuresInRow++;
    this.pausedUntil = Math.max(this.pausedUntil, this.now() + delay);
  }
}
