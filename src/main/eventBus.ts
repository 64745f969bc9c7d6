/** Events pushed from services to whichever shells are listening (IPC, Server-Sent Events, CLI). */
import type { AppEvent, EventMap, EventName } from '../shared/contract/events';

type Listener = (event: AppEvent) => void;

export class EventBus {
  private readonly listeners = new Set<Listener>();

  emit<N extends EventName>(name: N, payload: EventMap[N]): void {
    // One event of the union; TypeScript cannot see that a generic { name, payload } is one.
    const event = { name, payload } as AppEvent;
    for (const listener of this.listeners) {
      try {
        listener(event);
      } catch {
        // A failing listener (a closed stream) must not stop the others or the service.
      }
    }
  }

  /** One event, its payload typed by the event table; returns the unsubscribe function. */
  on<N extends EventName>(name: N, handler: (payload: EventMap[N]) => void): () => void {
    return this.subscribe((event) => {
      if (event.name === name) handler(event.payload as EventMap[N]);
    });
  }

  /** Every event; checking `event.name` narrows `event.payload` to that event's payload. */
  subscribe(listener: Listener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }
}
