import type { Migration } from './migration';

/** The states a paid send may hold from this step on (a test holds them equal to the code's). */
export const MESSAGING_SEND_STATES = ['queued', 'sending', 'sent', 'failed', 'uncertain', 'cancelled'] as const;
/** The states of a job of personalised messages. */
export const MESSAGING_JOB_STATES = ['running', 'paused', 'cancelled', 'completed', 'needs_attention'] as const;

const list = (states: readonly string[]) => states.map((s) => `'${s}'`).join(', ');

/**
 * Personalised messages (issue 40): a job of messages, one per recipient, each with its own text,
 * sent one by one (`/sendMessage` with `receiverNumber`). Every message of a job is a paid send —
 * one `messaging_sends` row, written `queued` with the job before anything is sent, then
 * `sending` (committed) before its request leaves, then `sent`, `failed` or `uncertain` as the
 * service answered; `cancelled` when its job was cancelled before it left. So the spend figures
 * and the wallet roll-forward, which read `messaging_sends`, count personalised messages as they
 * count any other, and a crash never leaves one that could be sent twice. A new state needs the
 * table copied (SQLite cannot change a CHECK), done here once; the single sends keep their rows.
 *
 * `messaging_jobs` holds the job: its sender ID, where its messages came from (a contacts sheet,
 * or another part of vendesk such as a standing order), its state, and the lease of the process
 * that runs it (`runner_pid`, `lease_until_ms`), so two processes never send the same job.
 *
 * `source_key` names what a message is about when another part of vendesk sends it once per thing
 * (`bulk:<job id>:<seq>`: the recipient of a bought bulk item); it is unique per connection, so a
 * second call, another process or a restart can never write a second message for the same item.
 * `source_ref` names the job's source (`bulk:<job id>`), so its unfinished jobs can be resumed.
 */
export const personalisedMessagesMigration: Migration = {
  version: 35,
  name: 'messaging: jobs of personalised messages, each message a paid send written before it leaves',
  up: `
    CREATE TABLE messaging_jobs (
      id INTEGER PRIMARY KEY AUTOINCREMENT,
      service_key TEXT NOT NULL,
      sender_id TEXT NOT NULL,
      origin TEXT NOT NULL CHECK (origin IN ('sheet', 'service')),
      label TEXT NOT NULL,
      file_hash TEXT,
      text TEXT,
      source_ref TEXT,
      state TEXT NOT NULL CHECK (state IN (${list(MESSAGING_JOB_STATES)})),
      note TEXT,
      runner_pid INTEGER,
      lease_until_ms INTEGER,
      created_at TEXT NOT NULL,
      finished_at TEXT
    );
    CREATE INDEX messaging_jobs_profile ON messaging_jobs (service_key, id);
    CREATE INDEX messaging_jobs_source ON messaging_jobs (service_key, source_ref) WHERE source_ref IS NOT NULL;

    CREATE TABLE messaging_sends_new (
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
      state TEXT NOT NULL CHECK (state IN (${list(MESSAGING_SEND_STATES)})),
      reference TEXT,
      charged_kobo INTEGER,
      error TEXT,
      created_at TEXT NOT NULL,
      finished_at TEXT,
      service_from_ms INTEGER,
      service_to_ms INTEGER,
      charge_source TEXT CHECK (charge_source IN ('service', 'quoted')),
      request_reference TEXT,
      job_id INTEGER REFERENCES messaging_jobs (id),
      job_seq INTEGER,
      job_row INTEGER,
      attempts INTEGER NOT NULL DEFAULT 1,
      settled_by TEXT,
      source_key TEXT
    );
    INSERT INTO messaging_sends_new (id, service_key, kind, sender_id, target, template_id, body, recipients, emails, quoted_kobo, state, reference, charged_kobo,
                                     error, created_at, finished_at, service_from_ms, service_to_ms, charge_source, request_reference)
      SELECT id, service_key, kind, sender_id, target, template_id, body, recipients, emails, quoted_kobo, state, reference, charged_kobo,
             error, created_at, finished_at, service_from_ms, service_to_ms, charge_source, request_reference
        FROM messaging_sends;
    DROP TABLE messaging_sends;
    ALTER TABLE messaging_sends_new RENAME TO messaging_sends;
    CREATE INDEX messaging_sends_profile ON messaging_sends (service_key, created_at);
    CREATE UNIQUE INDEX messaging_sends_job ON messaging_sends (job_id, job_seq) WHERE job_id IS NOT NULL;
    CREATE UNIQUE INDEX messaging_sends_source ON messaging_sends (service_key, source_key) WHERE source_key IS NOT NULL;
  `,
};
