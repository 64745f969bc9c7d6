/**
 * The Transactions filter choices come from the rows of one connection's mirror: every network
 * and status present, nothing that is not, whatever wrote the rows (new rows, a settled PENDING
 * entry, a mirror that predates the choices table).
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ParsedLogEntry } from '../../../src/main/api/parseLogEntry';
import { logFacets } from '../../../src/main/transactions/logFacets';
import { upsertLogEntriesInTransaction } from '../../../src/main/transactions/logStore';
import { openDatabase, type Db } from '../../../src/main/store/database';
import { generateLogEntries } from '../../../bench/generate/logEntries';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

let db: Db;
beforeEach(() => {
  db = openDatabase(':memory:');
});
afterEach(() => db.close());

/** The distinct values the mirror holds for `profile`, read the slow way. */
function fromRows(d: Db, profile: string) {
  const pairs = d.prepare('SELECT DISTINCT type, network FROM log_entries WHERE profile_id = ?').all(profile) as { type: string; network: string }[];
  const networks: Record<string, string[]> = {};
  for (const p of pairs) (networks[p.type] ??= []).push(p.network);
  for (const list of Object.values(networks)) list.sort((a, b) => a.localeCompare(b));
  const statuses = (d.prepare('SELECT DISTINCT status FROM log_entries WHERE profile_id = ?').pluck().all(profile) as string[]).sort();
  return { networks, statuses };
}

function asRecord(f: ReturnType<typeof logFacets>) {
  return { networks: Object.fromEntries(f.networks.map((g) => [g.type, g.networks])), statuses: [...f.statuses].sort() };
}

const electricity = (id: number, disco: string, status: ParsedLogEntry['status'] = 'SUCCESS'): ParsedLogEntry => ({
  ...[...generateLogEntries(1, id)][0],
  type: 'ELECTRICITY',
  network: disco,
  status,
});

describe('logFacets', () => {
  it('lists every network per type and every status present, in a fixed type order', () => {
    const entries = [...generateLogEntries(500), electricity(10_001, 'IKEDC'), electricity(10_002, 'KAEDCO'), { ...electricity(10_003, 'SHOWMAX'), type: 'CABLETV' as const }];
    upsertLogEntriesInTransaction(db, 'p', entries, 't');
    const f = logFacets(db, 'p');
    expect(asRecord(f)).toEqual(fromRows(db, 'p'));
    expect(f.networks.map((g) => g.type)).toEqual(['AIRTIME', 'DATA', 'ELECTRICITY', 'CABLETV']);
    expect(f.networks.find((g) => g.type === 'ELECTRICITY')?.networks).toEqual(expect.arrayContaining(['IKEDC', 'KAEDCO']));
    expect(f.networks.find((g) => g.type === 'CABLETV')?.networks).toContain('SHOWMAX');
  });

  it("shows one connection's choices only", () => {
    upsertLogEntriesInTransaction(db, 'sandbox', [electricity(1, 'IKEDC')], 't');
    upsertLogEntriesInTransaction(db, 'live', [electricity(1, 'EKEDC', 'FAILED')], 't');
    expect(logFacets(db, 'sandbox')).toEqual({ networks: [{ type: 'ELECTRICITY', networks: ['IKEDC'] }], statuses: ['SUCCESS'] });
    expect(logFacets(db, 'live')).toEqual({ networks: [{ type: 'ELECTRICITY', networks: ['EKEDC'] }], statuses: ['FAILED'] });
    expect(logFacets(db, 'nobody')).toEqual({ networks: [], statuses: [] });
  });

  it('offers Pending only while an entry is pending, and the status it settled to', () => {
    upsertLogEntriesInTransaction(db, 'p', [electricity(1, 'IKEDC'), electricity(2, 'AEDC', 'PENDING'), electricity(3, 'IKEDC', 'PENDING')], 't1');
    expect(logFacets(db, 'p').statuses).toEqual(['SUCCESS', 'PENDING']);
    // One settles to a choice already offered (IKEDC, SUCCESS), one to a new one (AEDC, FAILED).
    upsertLogEntriesInTransaction(db, 'p', [electricity(2, 'AEDC', 'FAILED'), electricity(3, 'IKEDC', 'SUCCESS')], 't2');
    expect(logFacets(db, 'p').statuses).toEqual(['SUCCESS', 'FAILED']);
    expect(asRecord(logFacets(db, 'p'))).toEqual(fromRows(db, 'p'));
  });

  it('fills the choices of a mirror written before they were kept (migration 011)', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'vendesk-facets-'));
    try {
      const file = path.join(dir, 'vendesk.db');
      const old = openDatabase(file);
      upsertLogEntriesInTransaction(old, 'p', [...generateLogEntries(300), electricity(5000, 'IBEDC')], 't');
      // As a database of the release before: no choices table, migration 11 not applied.
      old.exec('DROP TRIGGER log_entries_facets_update; DROP TABLE log_facets; DELETE FROM schema_migrations WHERE version = 11;');
      old.close();
      const reopened = openDatabase(file);
      expect(asRecord(logFacets(reopened, 'p'))).toEqual(fromRows(reopened, 'p'));
      reopened.close();
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
