/**
 * A service a lower folder declares and a higher one provides (VS Code's service identifiers):
 * the folder that needs it calls `app.service(slot)`; the composition root plugs in what fills it
 * (`PLUGS` in app.ts). So every purchase asks the team workspace before it is bought without
 * importing it: `buying/teamGate.ts` declares what it asks, `team/` answers, and app.ts wires the
 * two.
 *
 * A slot nothing was plugged into throws when used: a purchase is never bought past a gate that
 * was left out.
 */
import type { ServiceFactory } from './appContext';

export function serviceSlot<T>(name: string): ServiceFactory<T> {
  return () => {
    throw new Error(`${name} was not plugged in: the composition root (src/main/app.ts) plugs it.`);
  };
}
