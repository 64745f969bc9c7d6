/** Events pushed from services to whichever shells are listening (IPC, Server-Sent Events, CLI). */
import type { AppEvent, EventMap, EventName } from '../shared/contract/events';

type Listener = (event: AppEvent) => void;

export class EventBus {
  private readonly listeners = new Set<Listener>();

  emit<N extends EventName>(name: N, payload: EventMap[N]): void {
    const event = { name, payload } as AppEvent;
    for (const listener of this.listeners) {
      try {
        listener(event);
      } catch {
        // A failing listener (a closed stream) must not stop the others or the service.
      }
    }
  }

  subscribe(listener: Listener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }
}
