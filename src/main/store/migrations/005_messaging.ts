import type { Migration } from './migration';

/**
 * Messaging keeps three things locally. Which numbers of which file went into which phonebook
 * (so a re-import reports what was already uploaded, and an interrupted upload can be explained);
 * each contacts import run with its counts; and every paid send, written BEFORE the request
 * leaves, so a send whose answer was lost is shown as "uncertain" rather than silently re-sent.
 * `service_key` names the service and profile the phonebook ids belong to.
 */
export const messagingMigration: Migration = {
  version: 5,
  name: 'messaging: contact uploads, import runs and sends',
  up: `
    CREATE TABLE messaging_contact_uploads (
      service_key TEXT NOT NULL,
      phonebook_id INTEGER NOT NULL,
      phone TEXT NOT NULL,
      file_hash TEXT NOT NULL,
      row INTEGER NOT NULL,
      uploaded_at TEXT NOT NULL,
      PRIMARY KEY (service_key, phonebook_id, phone)
    ) WITHOUT ROWID;
    CREATE TABLE messaging_imports (
      id INTEGER PRIMARY KEY AUTOINCREMENT,
      service_key TEXT NOT NULL,
      phonebook_id INTEGER NOT NULL,
      file_name TEXT NOT NULL,
      file_hash TEXT NOT NULL,
      rows INTEGER NOT NULL,
      valid INTEGER NOT NULL,
      added INTEGER NOT NULL DEFAULT 0,
      skipped INTEGER NOT NULL DEFAULT 0,
      invalid INTEGER NOT NULL,
      state TEXT NOT NULL CHECK (state IN ('running', 'done', 'failed', 'cancelled')),
      error TEXT,
      started_at TEXT NOT NULL,
      finished_at TEXT
    );
    CREATE INDEX messaging_imports_file ON messaging_imports (service_key, phonebook_id, file_hash);
    CREATE TABLE messaging_sends (
      id INTEGER PRIMARY KEY AUTOINCREMENT,
      service_key TEXT NOT NULL,
      kind TEXT NOT NULL CHECK (kind IN ('sms', 'otp')),
      sender_id TEXT NOT NULL,
      target TEXT NOT NULL,
      template_id TEXT,
      body TEXT NOT NULL,
      recipients INTEGER NOT NULL,
      emails INTEGER NOT NULL,
      quoted_kobo INTEGER NOT NULL,
      state TEXT NOT NULL CHECK (state IN ('sending', 'sent', 'failed', 'uncertain')),
      reference TEXT,
      charged_kobo INTEGER,
      error TEXT,
      created_at TEXT NOT NULL,
      finished_at TEXT
    );
  `,
};
