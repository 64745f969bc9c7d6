/**
 * The read paths take a `ReadableDB` (src/main/store/readableDb.ts): a read path is given no way
 * to write. The type has no `run`, `exec` or writing `pragma` (tsc checks the expectations below
 * in the type-check), and the read modules do not name the writable database type at all.
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, expectTypeOf, it } from 'vitest';
import type { Db } from '../../../src/main/store/database';
import type { ReadableDB, ReadStatement } from '../../../src/main/store/readableDb';

const MAIN = path.resolve(__dirname, '../../../src/main');

/** The modules that only read the local database. */
const READ_PATHS = [
  'transactions/logQuery.ts',
  'transactions/logSearchIndex.ts',
  'transactions/logPositionIndex.ts',
  'reports/spendReport.ts',
  'transactions/expectedCost.ts',
  'dashboard/dashboardSummary.ts',
  'dashboard/monthByCostCentre.ts',
  // What the windows, the CLI and preparation read of bulk jobs: apart from their moves (issue 39).
  'buying/jobReads.ts',
  'messaging/messagingSpend.ts',
];

describe('a read-only database handle', () => {
  it('has statements that cannot run, and no exec', () => {
    expectTypeOf<ReadStatement>().not.toHaveProperty('run');
    expectTypeOf<ReadableDB>().not.toHaveProperty('exec');
    expectTypeOf<ReadStatement>().toHaveProperty('all');
    // The database itself is one, so the read paths share its caches with the write paths.
    expectTypeOf<Db>().toMatchTypeOf<ReadableDB>();
  });

  it.each(READ_PATHS)('is all that %s is given of the database', (file) => {
    const source = fs.readFileSync(path.join(MAIN, file), 'utf8');
    expect(source).toContain("from '../store/readableDb'");
    expect(source).not.toMatch(/import type \{[^}]*\bDb\b[^}]*\} from '\.\.\/store\/database'/);
  });
});
