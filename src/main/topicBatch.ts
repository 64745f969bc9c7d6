/**
 * What a pass of background work changed, told to the windows once, when the pass ends: one
 * `data.changed` for the pass, whatever number of purchases it settled (one event per purchase
 * had each window read its page again that many times in a row). A long pass tells them after
 * every 25 changes too (`flushIfDue`), so a settled purchase does not wait for the whole pass to
 * show. Counted, not timed: what the windows are told never depends on the machine's speed.
 * Operations do not need it: dispatch tells the windows once, after the operation, with what the
 * contract declares.
 */
import type { DataTopic } from '../shared/contract/events';
import type { AppPart } from './appContext';

export class TopicBatch {
  private readonly topics = new Set<DataTopic>();
  /** Changes added since the last flush. */
  private added = 0;

  constructor(
    private readonly app: AppPart<'invalidate'>,
    private readonly reason: string,
  ) {}

  add(topics: readonly DataTopic[]): void {
    for (const t of topics) this.topics.add(t);
    if (topics.length > 0) this.added++;
  }

  /** Flushes once `every` changes were added since the last flush. */
  flushIfDue(every = 25): void {
    if (this.added >= every) this.flush();
  }

  /** Tells the windows what was added since the last flush, if anything. */
  flush(): void {
    if (this.topics.size === 0) return;
    const topics = [...this.topics];
    this.topics.clear();
    this.added = 0;
    this.app.invalidate(topics, this.reason);
  }
}
