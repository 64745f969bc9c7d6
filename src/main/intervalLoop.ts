/**
 * A background pass repeated at a fixed interval (the bulk follow-up, the pending-purchase
 * scheduler): the timer does not keep the process alive, and stopping it waits for the pass under
 * way. After `stop`, `closed` is true and `start` does nothing.
 */
export interface IntervalLoop {
  readonly closed: boolean;
  /** Starts the timer (at `everyMs`, or re-armed at another pace). */
  start(everyMs?: number): void;
  readonly running: boolean;
  stop(): Promise<void>;
}

/** `underWay`: what `stop` waits for (the pass in progress, or the queue of passes). */
export function intervalLoop(everyMs: number, pass: () => unknown, underWay: () => Promise<unknown> | null): IntervalLoop {
  let timer: NodeJS.Timeout | null = null;
  let closed = false;
  return {
    get closed() {
      return closed;
    },
    start(ms?: number) {
      if (closed || (timer && ms === undefined)) return;
      if (timer) clearInterval(timer);
      timer = setInterval(() => void pass(), ms ?? everyMs);
      timer.unref();
    },
    get running() {
      return timer !== null;
    },
    async stop() {
      closed = true;
      if (timer) clearInterval(timer);
      timer = null;
      await underWay();
    },
  };
}
