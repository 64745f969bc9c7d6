/** Items and jobs for the unit tests of a job's reads and moves: an airtime job of ₦100 items on an in-memory database. */
import type { JobLifecycle } from '../../../src/main/buying/jobLifecycle';
import { newItem, type InvalidRowRecord, type NewItem } from '../../../src/main/buying/jobRows';
import type { ItemState } from '../../../src/main/buying/jobStates';

/** Item `i` of a job: row i + 2 of the file, a distinct MTN phone, ₦100, queued. */
export function testItem(i: number, over: Partial<NewItem> = {}): NewItem {
  return newItem({ rowNumber: i + 2, phone: `0803${String(1_000_000 + i).slice(-7)}`, network: 'MTN', productCode: 'MTN-VTU', description: '', amountKobo: 100_00, ...over });
}

/** A draft airtime job with these items (and these invalid rows). */
export function testJob(lifecycle: JobLifecycle, items: NewItem[], invalid: InvalidRowRecord[] = []): string {
  return lifecycle.createJob(
    {
      kind: 'airtime',
      profileId: 'sandbox',
      connectionKind: 'sandbox',
      baseUrl: 'http://127.0.0.1:1',
      fileName: 'f.csv',
      fileHash: 'h',
      sheetName: null,
      headers: ['Phone', 'Amount'],
      mapping: {},
      rowsTotal: items.length,
      batchSize: 50,
      concurrency: 3,
    },
    items,
    invalid,
  );
}

/**
 * A job whose items are written in these states, as a database an older vendesk left may hold
 * them: an item is born in its state (the state tables guard moves, not what is already there).
 */
export function jobInStates(lifecycle: JobLifecycle, states: readonly ItemState[]): string {
  return testJob(
    lifecycle,
    states.map((state, i) => ({ ...testItem(i), state: state as NewItem['state'] })),
  );
}
