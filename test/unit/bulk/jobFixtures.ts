/** Items and jobs for the job store's unit tests: an airtime job of ₦100 items on an in-memory database. */
import type { InvalidRowRecord, JobStore, NewItem } from '../../../src/main/bulk/jobStore';
import { newItem } from '../../../src/main/bulk/jobRows';

/** Item `i` of a job: row i + 2 of the file, a distinct MTN phone, ₦100, queued. */
export function testItem(i: number, over: Partial<NewItem> = {}): NewItem {
  return newItem({ rowNumber: i + 2, phone: `0803${String(1_000_000 + i).slice(-7)}`, network: 'MTN', productCode: 'MTN-VTU', description: '', amountKobo: 100_00, ...over });
}

/** A draft airtime job with these items (and these invalid rows). */
export function testJob(store: JobStore, items: NewItem[], invalid: InvalidRowRecord[] = []): string {
  return store.createJob(
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
