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

/**
 * Holds every call of `target[name]` (a client's or a gate's method) until released, then lets it
 * go on to the real method: the real service or gate still answers, only later.
 */
export function holdMethod<T extends object, K extends keyof T>(target: T, name: K): HeldAnswer {
  const held = heldAnswer();
  const original = target[name] as (...args: unknown[]) => unknown;
  const replaced = async (...args: unknown[]): Promise<unknown> => {
    await held.wait();
    return original.apply(target, args);
  };
  target[name] = replaced as T[K];
  return held;
}
