/**
 * Migration 9 on a data folder made before it: the spending caps kept for every connection
 * (`bulk.settings`) become each profile's own, and each connection that has jobs, so no
 * connection may spend more after the upgrade than it could before.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { readBulkSettings, writeBulkSettings } from '../../../src/main/buying/bulkSettings';
import { databaseBefore } from '../../support/databaseBefore';
import { openDatabase } from '../../../src/main/store/database';
import { Settings } from '../../../src/main/store/settings';

let dir: string;
afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

/** A database as vendesk left it before migration 9. */
function databaseBefore9(file: string): void {
  const db = databaseBefore(file, 9);
  const at = new Date().toISOString();
  db.prepare("INSERT INTO profiles (id, name, kind, base_url, created_at) VALUES ('live-1', 'Head office', 'live', 'https://api.example.com', ?)").run(at);
  db.prepare("INSERT INTO settings (key, value, updated_at) VALUES ('bulk.settings', ?, ?)").run(
    JSON.stringify({ capPerJobKobo: 2_000_000, capPerDayKobo: 5_000_000, batchSize: 20 }),
    at,
  );
  db.prepare(
    `INSERT INTO bulk_jobs (id, kind, state, profile_id, connection_kind, base_url, file_name, file_hash, headers_json, mapping_json, rows_total, invalid_count, batch_size, concurrency, created_at, updated_at)
     VALUES ('job-1', 'airtime', 'completed', 'cli-connection', 'live', 'https://other.example.com', 'f.csv', 'h', '[]', '{}', 1, 0, 20, 3, ?, ?)`,
  ).run(at, at);
  db.close();
}

describe('migration 9', () => {
  it('copies the caps set for every connection to each profile and each connection with jobs', () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'vendesk-migration-'));
    const file = path.join(dir, 'vendesk.db');
    databaseBefore9(file);
    const db = openDatabase(file);
    try {
      const settings = new Settings(db);
      const keys = (db.prepare("SELECT key FROM settings WHERE key LIKE 'bulk.settings:%' ORDER BY key").all() as { key: string }[]).map((r) => r.key);
      expect(keys).toEqual(['bulk.settings:cli-connection', 'bulk.settings:live-1', 'bulk.settings:sandbox']);
      for (const profile of ['sandbox', 'live-1', 'cli-connection']) {
        expect(readBulkSettings(settings, profile)).toMatchObject({ capPerJobKobo: 2_000_000, capPerDayKobo: 5_000_000, batchSize: 20 });
      }
      // Each is its own from now on: raising one connection's cap leaves the others capped.
      writeBulkSettings(settings, 'live-1', { capPerDayKobo: null });
      expect(readBulkSettings(settings, 'live-1').capPerDayKobo).toBeNull();
      expect(readBulkSettings(settings, 'sandbox').capPerDayKobo).toBe(5_000_000);
      // A connection first seen after the upgrade starts with the caps set before it, never with none.
      expect(readBulkSettings(settings, 'new-connection')).toMatchObject({ capPerJobKobo: 2_000_000, capPerDayKobo: 5_000_000 });
      // Items can hold their wallet cost; unknown until the service shows it.
      expect(db.prepare("SELECT name FROM pragma_table_info('bulk_items') WHERE name IN ('cost_kobo', 'next_requery_ms', 'requery_tries') ORDER BY name").all()).toHaveLength(3);
    } finally {
      db.close();
    }
  });
});
