/**
 * The service's clock, as seen from this computer. Every answer carries the service's time in its
 * `Date` header (to the second); the sandbox sends its own, movable clock there. Each answer says
 * that, when it was made, the service's clock read between `Date` and `Date + 999 ms`, at a moment
 * between sending the request and receiving the answer here. So the offset (service − local) lies
 * in `[Date − received, Date + 999 − sent]`; intersecting those bounds over many answers narrows
 * it to a few milliseconds. Bounds that no longer meet mean the service's clock jumped (a sandbox
 * clock moved forward): the estimate starts again from the latest answer.
 *
 * Times of the service's events (balance readings, paid messages) are kept as a window
 * `[fromMs, toMs]` on the service's clock, so a reconciliation can tell what came before a balance
 * reading even when this computer's clock is off by hours.
 */

/** When something happened on the service's clock: between `fromMs` and `toMs` (epoch ms). */
export interface ServiceWindow {
  fromMs: number;
  toMs: number;
  /** 'service': placed with the service's `Date` header; 'local': this computer's clock only. */
  clock: 'service' | 'local';
}

/** The `Date` header's resolution: the service's time is somewhere in the second it names. */
const DATE_RESOLUTION_MS = 999;

export class ServiceClockEstimate {
  private lo = Number.NEGATIVE_INFINITY;
  private hi = Number.POSITIVE_INFINITY;

  /** Whether any answer has told the service's time yet. */
  get known(): boolean {
    return Number.isFinite(this.lo) && Number.isFinite(this.hi);
  }

  /**
   * Learns from one answer: its `Date` header (epoch ms, whole seconds) and the local times the
   * request left and the answer arrived. Returns where the answer was made on the service's clock.
   */
  observe(dateMs: number, sentLocalMs: number, receivedLocalMs: number): ServiceWindow {
    if (!Number.isFinite(dateMs)) return { fromMs: sentLocalMs, toMs: receivedLocalMs, clock: 'local' };
    const lo = dateMs - receivedLocalMs;
    const hi = dateMs + DATE_RESOLUTION_MS - sentLocalMs;
    const nlo = Math.max(this.lo, lo);
    const nhi = Math.min(this.hi, hi);
    if (nlo <= nhi) {
      this.lo = nlo;
      this.hi = nhi;
    } else {
      // The service's clock jumped (or this computer's did): only the latest answer holds.
      this.lo = lo;
      this.hi = hi;
    }
    return {
      fromMs: sentLocalMs + this.lo,
      toMs: Math.min(receivedLocalMs + this.hi, dateMs + DATE_RESOLUTION_MS),
      clock: 'service',
    };
  }

  /** Best estimate of service − local, in ms (0 while nothing is known). */
  offsetMs(): number {
    return this.known ? Math.round((this.lo + this.hi) / 2) : 0;
  }

  /** Where a moment of this computer's clock falls on the service's clock. */
  windowAt(localFromMs: number, localToMs = localFromMs): ServiceWindow {
    if (!this.known) return { fromMs: localFromMs, toMs: localToMs, clock: 'local' };
    return { fromMs: localFromMs + this.lo, toMs: localToMs + this.hi, clock: 'service' };
  }

  /**
   * Moves the estimate forward as if the service's clock had jumped by `ms` (tests and sandbox
   * demonstrations move the sandbox's clock and this one together). The next answer confirms it,
   * or replaces it if the service did not move.
   */
  shift(ms: number): void {
    if (this.known) {
      this.lo += ms;
      this.hi += ms;
    } else {
      this.lo = ms;
      this.hi = ms;
    }
  }
}
