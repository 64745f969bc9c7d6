/**
 * The sandbox's state in SQLite (a file that survives restarts, or `:memory:`). Every table is
 * keyed by organisation. Money is integer kobo; times are epoch milliseconds on the
 * organisation's sandbox clock.
 */
import fs from 'node:fs';
import Database from 'better-sqlite3';

export type Db = Database.Database;

export const SCHEMA_VERSION = 2;

const SCHEMA = `
CREATE TABLE IF NOT EXISTS orgs (
  id INTEGER PRIMARY KEY,
  token TEXT NOT NULL UNIQUE,
  name TEXT NOT NULL,
  account_number TEXT NOT NULL,
  configured INTEGER NOT NULL,
  balance_kobo INTEGER NOT NULL,
  clock_offset_ms INTEGER NOT NULL DEFAULT 0,
  created_ms INTEGER NOT NULL,
  held_at_ms INTEGER
);
CREATE TABLE IF NOT EXISTS log (
  id INTEGER PRIMARY KEY,
  org_id INTEGER NOT NULL,
  transaction_id TEXT NOT NULL,
  partner_reference TEXT NOT NULL,
  phone_number TEXT NOT NULL,
  amount_kobo INTEGER NOT NULL,
  cost_kobo INTEGER NOT NULL,
  commission_kobo INTEGER NOT NULL,
  type TEXT NOT NULL,
  network TEXT NOT NULL,
  operator TEXT NOT NULL,
  region TEXT NOT NULL,
  description TEXT NOT NULL,
  data_plan TEXT NOT NULL,
  status TEXT NOT NULL,
  outcome TEXT NOT NULL,
  final_at_ms INTEGER,
  created_ms INTEGER NOT NULL,
  updated_ms INTEGER NOT NULL,
  account TEXT NOT NULL DEFAULT '',
  vend_type TEXT NOT NULL DEFAULT '',
  token TEXT NOT NULL DEFAULT '',
  units REAL NOT NULL DEFAULT 0,
  requery_count INTEGER NOT NULL DEFAULT 0
);
CREATE INDEX IF NOT EXISTS log_org_created ON log(org_id, created_ms DESC, id DESC);
CREATE UNIQUE INDEX IF NOT EXISTS log_org_txn ON log(org_id, transaction_id);
CREATE INDEX IF NOT EXISTS log_pending ON log(org_id, final_at_ms) WHERE status = 'PENDING';
CREATE INDEX IF NOT EXISTS log_pending_account ON log(org_id, account, amount_kobo) WHERE status = 'PENDING';
CREATE TABLE IF NOT EXISTS sender_ids (
  org_id INTEGER NOT NULL,
  sender_id TEXT NOT NULL,
  approval TEXT NOT NULL,
  created_ms INTEGER NOT NULL,
  PRIMARY KEY (org_id, sender_id)
);
CREATE TABLE IF NOT EXISTS templates (
  id TEXT PRIMARY KEY,
  org_id INTEGER NOT NULL,
  name TEXT NOT NULL,
  slug TEXT NOT NULL,
  body TEXT NOT NULL,
  indexes TEXT NOT NULL,
  use_case TEXT NOT NULL,
  outcome TEXT NOT NULL,
  created_ms INTEGER NOT NULL
);
CREATE INDEX IF NOT EXISTS templates_org ON templates(org_id, created_ms);
CREATE TABLE IF NOT EXISTS phonebooks (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  org_id INTEGER NOT NULL,
  name TEXT NOT NULL,
  description TEXT NOT NULL,
  created_ms INTEGER NOT NULL
);
CREATE INDEX IF NOT EXISTS phonebooks_org ON phonebooks(org_id, id);
CREATE TABLE IF NOT EXISTS contacts (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  org_id INTEGER NOT NULL,
  phonebook_id INTEGER NOT NULL,
  name TEXT NOT NULL,
  phone TEXT NOT NULL,
  created_ms INTEGER NOT NULL,
  UNIQUE (phonebook_id, phone)
);
CREATE TABLE IF NOT EXISTS messages (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  org_id INTEGER NOT NULL,
  reference TEXT NOT NULL UNIQUE,
  sender_id TEXT NOT NULL,
  body TEXT NOT NULL,
  is_bulk INTEGER NOT NULL,
  phonebook_id INTEGER,
  recipients TEXT NOT NULL,
  pages INTEGER NOT NULL,
  emails TEXT NOT NULL,
  sms_cost_kobo INTEGER NOT NULL,
  email_cost_kobo INTEGER NOT NULL,
  template_id TEXT,
  created_ms INTEGER NOT NULL
);
CREATE INDEX IF NOT EXISTS messages_org ON messages(org_id, created_ms DESC, id DESC);
CREATE TABLE IF NOT EXISTS evidence (
  reference TEXT PRIMARY KEY,
  org_id INTEGER NOT NULL,
  phone TEXT NOT NULL,
  code TEXT NOT NULL,
  digits INTEGER NOT NULL,
  expires_ms INTEGER NOT NULL,
  confirmed_ms INTEGER,
  cost_kobo INTEGER NOT NULL,
  created_ms INTEGER NOT NULL
);
CREATE TABLE IF NOT EXISTS outbox (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  org_id INTEGER NOT NULL,
  channel TEXT NOT NULL,
  recipient TEXT NOT NULL,
  subject TEXT,
  body TEXT NOT NULL,
  reference TEXT NOT NULL,
  code TEXT,
  created_ms INTEGER NOT NULL
);
CREATE INDEX IF NOT EXISTS outbox_org ON outbox(org_id, id);
`;

export function openDb(dbPath: string | undefined): Db {
  // A new state file is its owner's only (its -wal and -shm take its mode), whatever the umask.
  if (dbPath) fs.closeSync(fs.openSync(dbPath, 'a', 0o600));
  const db = new Database(dbPath ?? ':memory:');
  if (dbPath) db.pragma('journal_mode = WAL');
  db.pragma('synchronous = NORMAL');
  db.pragma('foreign_keys = OFF');
  db.exec(SCHEMA);
  // A state file from before the clock could be held (version 1) gains the column.
  if (!(db.pragma('table_info(orgs)') as { name: string }[]).some((c) => c.name === 'held_at_ms')) db.exec('ALTER TABLE orgs ADD COLUMN held_at_ms INTEGER');
  db.pragma(`user_version = ${SCHEMA_VERSION}`);
  return db;
}

export interface OrgRow {
  id: number;
  token: string;
  name: string;
  account_number: string;
  configured: number;
  balance_kobo: number;
  clock_offset_ms: number;
  created_ms: number;
  held_at_ms: number | null;
}

export interface LogRow {
  id: number;
  org_id: number;
  transaction_id: string;
  partner_reference: string;
  phone_number: string;
  amount_kobo: number;
  cost_kobo: number;
  commission_kobo: number;
  type: 'AIRTIME' | 'DATA' | 'ELECTRICITY' | 'CABLETV';
  network: string;
  operator: string;
  region: string;
  description: string;
  data_plan: string;
  status: 'SUCCESS' | 'FAILED' | 'PENDING';
  outcome: 'SUCCESS' | 'FAILED' | 'PENDING';
  final_at_ms: number | null;
  created_ms: number;
  updated_ms: number;
  account: string;
  vend_type: string;
  token: string;
  units: number;
  requery_count: number;
}

/** The columns an insert provides (id is assigned). */
export type NewLogRow = Omit<LogRow, 'id' | 'requery_count'>;

export const LOG_INSERT_SQL = `INSERT INTO log (org_id, transaction_id, partner_reference, phone_number, amount_kobo,
  cost_kobo, commission_kobo, type, network, operator, region, description, data_plan, status, outcome, final_at_ms,
  created_ms, updated_ms, account, vend_type, token, units)
  VALUES (@org_id, @transaction_id, @partner_reference, @phone_number, @amount_kobo, @cost_kobo, @commission_kobo,
  @type, @network, @operator, @region, @description, @data_plan, @status, @outcome, @final_at_ms, @created_ms,
  @updated_ms, @account, @vend_type, @token, @units)`;
