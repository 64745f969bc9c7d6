/**
 * An answer held back until the test lets it through: stands for a slow team database or a slow
 * check at the service, so a test can change something (switch the connection) while a call waits
 * for it — by state, never by time. `wait()` is what the held call awaits; `asked` says it is
 * waiting; `release()` lets it go on.
 */
export interface HeldAnswer {
  readonly asked: boolean;
  wait(): Promise<void>;
  release(): void;
}

export function heldAnswer(): HeldAnswer {
  let asked = false;
  let release = (): void => undefined;
  const released = new Promise<void>((resolve) => (release = resolve));
  return {
    get asked() {
      return asked;
    },
    async wait() {
      asked = true;
      await released;
    },
    release: () => release(),
  };
}
