/**
 * The local record of jobs of personalised messages (migration 35): `messaging_jobs`, and each
 * message of a job as a paid send in `messaging_sends` (job_id, job_seq) — written `queued` with its
 * job, before anything is sent. Every move of a message's state is one statement here that names
 * the states it may move from, so a message already sent can never be queued again.
 */
import type { JobMessageState, JobMessageView, MessageJobState, MessageJobView } from '../../shared/contract/messaging';
import { JOB_MESSAGE_STATES } from '../../shared/contract/messaging';
import { smsPages } from '../../shared/messagingCost';
import type { MessageAnswer } from '../api/messagingAnswers';
import type { Db } from '../store/database';
import { now } from './paidSends';

export interface MessageJobRow {
  id: number;
  service_key: string;
  sender_id: string;
  origin: 'sheet' | 'service';
  label: string;
  file_hash: string | null;
  text: string | null;
  source_ref: string | null;
  state: MessageJobState;
  note: string | null;
  runner_pid: number | null;
  lease_until_ms: number | null;
  created_at: string;
  finished_at: string | null;
}

export interface JobMessageRow {
  id: number;
  job_seq: number;
  job_row: number | null;
  target: string;
  sender_id: string;
  body: string;
  quoted_kobo: number;
  state: JobMessageState;
  reference: string | null;
  charged_kobo: number | null;
  charge_source: 'service' | 'quoted' | null;
  error: string | null;
  settled_by: string | null;
  attempts: number;
  created_at: string;
  service_from_ms: number | null;
}

/** One message to write: its recipient (11-digit), its text, what it costs at ₦4 a page, and its row of the sheet. */
export interface NewJobMessage {
  phone: string;
  text: string;
  quotedKobo: number;
  row: number | null;
  /** What the message is about, once per connection (`bulk:<job id>:<seq>`); null for a sheet's messages. */
  sourceKey?: string | null;
}

/** The mark of a message the service refused once and that goes again when its job is resumed. */
export const REFUSED_ONCE = 'refused once: sent again when the job was resumed';

const MESSAGE_COLUMNS =
  'id, job_seq, job_row, target, sender_id, body, quoted_kobo, state, reference, charged_kobo, charge_source, error, settled_by, attempts, created_at, service_from_ms';

export class MessageJobStore {
  constructor(private readonly db: Db) {}

  /**
   * The job and its messages, all `queued`, in one transaction. A message whose `sourceKey` this
   * connection already has a message for is left out (it was written before: by an earlier call,
   * another process, a run before a restart); with none left, no job is written and the answer is null.
   */
  create(
    job: { serviceKey: string; senderId: string; origin: 'sheet' | 'service'; label: string; fileHash: string | null; text: string | null; sourceRef?: string | null },
    all: readonly NewJobMessage[],
  ): number | null {
    return this.db
      .transaction(() => {
        const known = this.db.prepare('SELECT 1 FROM messaging_sends WHERE service_key = ? AND source_key = ?');
        const messages = all.filter((m) => !m.sourceKey || known.get(job.serviceKey, m.sourceKey) === undefined);
        if (messages.length === 0) return null;
        const at = now();
        const id = Number(
          this.db
            .prepare(
              `INSERT INTO messaging_jobs (service_key, sender_id, origin, label, file_hash, text, source_ref, state, created_at)
             VALUES (?, ?, ?, ?, ?, ?, ?, 'running', ?)`,
            )
            .run(job.serviceKey, job.senderId, job.origin, job.label, job.fileHash, job.text, job.sourceRef ?? null, at).lastInsertRowid,
        );
        const insert = this.db.prepare(
          `INSERT INTO messaging_sends (service_key, kind, sender_id, target, template_id, body, recipients, emails, quoted_kobo, state, created_at, job_id, job_seq, job_row, attempts, source_key)
         VALUES (?, 'sms', ?, ?, NULL, ?, 1, 0, ?, 'queued', ?, ?, ?, ?, 0, ?)`,
        );
        messages.forEach((m, i) => insert.run(job.serviceKey, job.senderId, m.phone, m.text, m.quotedKobo, at, id, i + 1, m.row, m.sourceKey ?? null));
        return id;
      })
      .immediate();
  }

  /** The jobs of a source (`bulk:<job id>`) that have not finished: to resume. */
  unfinishedOf(serviceKey: string, sourceRef: string): MessageJobRow[] {
    return this.db
      .prepare(`SELECT * FROM messaging_jobs WHERE service_key = ? AND source_ref = ? AND state IN ('running', 'paused') ORDER BY id`)
      .all(serviceKey, sourceRef) as MessageJobRow[];
  }

  job(id: number): MessageJobRow | null {
    return (this.db.prepare('SELECT * FROM messaging_jobs WHERE id = ?').get(id) as MessageJobRow | undefined) ?? null;
  }

  jobs(serviceKey: string, limit: number): MessageJobRow[] {
    return this.db.prepare('SELECT * FROM messaging_jobs WHERE service_key = ? ORDER BY id DESC LIMIT ?').all(serviceKey, limit) as MessageJobRow[];
  }

  /**
   * This process takes the job's lease (refused while another live process holds it) and the job
   * runs: a message left `sending` by a vendesk that stopped becomes `uncertain` — it may have
   * been sent — so it is checked in the service's history, never sent again blindly.
   */
  beginRun(id: number, pid: number, leaseMs: number, isAlive: (pid: number) => boolean): { ok: true } | { ok: false; holder: number } {
    return this.db
      .transaction(() => {
        const row = this.job(id);
        if (!row) return { ok: true as const };
        if (row.runner_pid !== null && row.runner_pid !== pid && (row.lease_until_ms ?? 0) > Date.now() && isAlive(row.runner_pid)) {
          return { ok: false as const, holder: row.runner_pid };
        }
        this.db.prepare('UPDATE messaging_jobs SET runner_pid = ?, lease_until_ms = ? WHERE id = ?').run(pid, Date.now() + leaseMs, id);
        if (row.state !== 'cancelled') this.setState(id, 'running', null);
        this.db
          .prepare(
            `UPDATE messaging_sends SET state = 'uncertain', finished_at = ?,
                    error = 'vendesk stopped before the service answered this message: it may have been sent. vendesk checks the service''s message history before anything is sent again.'
              WHERE job_id = ? AND state = 'sending'`,
          )
          .run(now(), id);
        return { ok: true as const };
      })
      .immediate();
  }

  renewLease(id: number, pid: number, leaseMs: number): void {
    this.db.prepare('UPDATE messaging_jobs SET lease_until_ms = ? WHERE id = ? AND runner_pid = ?').run(Date.now() + leaseMs, id, pid);
  }

  releaseLease(id: number, pid: number): void {
    this.db.prepare('UPDATE messaging_jobs SET runner_pid = NULL, lease_until_ms = NULL WHERE id = ? AND runner_pid = ?').run(id, pid);
  }

  setState(id: number, state: MessageJobState, note: string | null): void {
    const final = state === 'completed' || state === 'cancelled';
    this.db.prepare('UPDATE messaging_jobs SET state = ?, note = ?, finished_at = ? WHERE id = ?').run(state, note, final ? now() : null, id);
  }

  // ------------------------------------------------------------------ messages

  messages(jobId: number, states?: readonly JobMessageState[], offset = 0, limit = -1): JobMessageRow[] {
    const where = states ? ` AND state IN (${states.map(() => '?').join(', ')})` : '';
    return this.db
      .prepare(`SELECT ${MESSAGE_COLUMNS} FROM messaging_sends WHERE job_id = ?${where} ORDER BY job_seq LIMIT ? OFFSET ?`)
      .all(jobId, ...(states ?? []), limit, offset) as JobMessageRow[];
  }

  count(jobId: number, states?: readonly JobMessageState[]): number {
    const where = states ? ` AND state IN (${states.map(() => '?').join(', ')})` : '';
    return (this.db.prepare(`SELECT count(*) AS n FROM messaging_sends WHERE job_id = ?${where}`).get(jobId, ...(states ?? [])) as { n: number }).n;
  }

  nextQueued(jobId: number): JobMessageRow | null {
    return (
      (this.db.prepare(`SELECT ${MESSAGE_COLUMNS} FROM messaging_sends WHERE job_id = ? AND state = 'queued' ORDER BY job_seq LIMIT 1`).get(jobId) as JobMessageRow | undefined) ??
      null
    );
  }

  /** `queued` → `sending`, committed before its request leaves; false when it is no longer queued. */
  markSending(id: number, serviceMs: number): boolean {
    return (
      this.db
        .prepare(
          `UPDATE messaging_sends SET state = 'sending', attempts = attempts + 1, created_at = ?, finished_at = NULL, service_from_ms = ?, service_to_ms = NULL
            WHERE id = ? AND state = 'queued'`,
        )
        .run(now(), serviceMs, id).changes === 1
    );
  }

  /** A message the service refused (nothing charged) goes back to `queued`, marked, for when its job is resumed. */
  requeueRefused(id: number): void {
    this.db.prepare(`UPDATE messaging_sends SET state = 'queued', settled_by = ? WHERE id = ? AND state = 'failed'`).run(REFUSED_ONCE, id);
  }

  /** Why an uncertain message is left as it is (the history cannot tell). */
  noteUncertain(id: number, reason: string): void {
    this.db.prepare(`UPDATE messaging_sends SET error = ? WHERE id = ? AND state = 'uncertain'`).run(reason, id);
  }

  /** Whether another of this connection's sends owns the service's message `reference`. */
  isReferenceClaimed(serviceKey: string, reference: string): boolean {
    return this.db.prepare('SELECT 1 FROM messaging_sends WHERE service_key = ? AND reference = ?').get(serviceKey, reference) !== undefined;
  }

  /** An uncertain message found in the service's history: sent, at the history's cost (else the estimate). */
  settleSent(id: number, found: MessageAnswer, how: string): boolean {
    return (
      this.db
        .prepare(
          `UPDATE messaging_sends SET state = 'sent', reference = ?, charged_kobo = ?, charge_source = ?, error = NULL, settled_by = ?, finished_at = ?
            WHERE id = ? AND state = 'uncertain'`,
        )
        .run(found.reference, found.totalKobo ?? null, found.totalKobo === null ? 'quoted' : 'service', how, now(), id).changes === 1
    );
  }

  /** An uncertain message the service's history shows was not sent: queued again (`send_again`) or, for a cancelled job, cancelled. */
  settleAbsent(id: number, then: 'send_again' | 'cancel', how: string): boolean {
    return (
      this.db
        .prepare(`UPDATE messaging_sends SET state = ?, error = NULL, settled_by = ?, finished_at = ? WHERE id = ? AND state = 'uncertain'`)
        .run(then === 'send_again' ? 'queued' : 'cancelled', how, now(), id).changes === 1
    );
  }

  /** Messages not sent yet are not sent: `queued` → `cancelled`. */
  cancelQueued(jobId: number): number {
    return this.db
      .prepare(`UPDATE messaging_sends SET state = 'cancelled', settled_by = 'the job was cancelled before it was sent', finished_at = ? WHERE job_id = ? AND state = 'queued'`)
      .run(now(), jobId).changes;
  }

  // ------------------------------------------------------------------ views

  counts(jobId: number): Record<JobMessageState, number> {
    const out = Object.fromEntries(JOB_MESSAGE_STATES.map((s) => [s, 0])) as Record<JobMessageState, number>;
    const rows = this.db.prepare('SELECT state, count(*) AS n FROM messaging_sends WHERE job_id = ? GROUP BY state').all(jobId) as { state: JobMessageState; n: number }[];
    for (const r of rows) out[r.state] = r.n;
    return out;
  }

  view(row: MessageJobRow, runningHere: boolean, isAlive: (pid: number) => boolean): MessageJobView {
    const figures = this.db
      .prepare(
        `SELECT count(*) AS messages, COALESCE(sum(quoted_kobo), 0) AS estimated,
                COALESCE(sum(CASE WHEN state = 'sent' THEN coalesce(charged_kobo, quoted_kobo) END), 0) AS charged,
                COALESCE(sum(state = 'sent' AND (charged_kobo IS NULL OR charge_source = 'quoted')), 0) AS as_quoted,
                COALESCE(sum(CASE WHEN state IN ('uncertain', 'sending') THEN quoted_kobo END), 0) AS uncertain
           FROM messaging_sends WHERE job_id = ?`,
      )
      .get(row.id) as { messages: number; estimated: number; charged: number; as_quoted: number; uncertain: number };
    const leaseHeld = row.runner_pid !== null && (row.lease_until_ms ?? 0) > Date.now() && isAlive(row.runner_pid);
    return {
      id: row.id,
      origin: row.origin,
      label: row.label,
      senderId: row.sender_id,
      text: row.text,
      state: row.state,
      interrupted: row.state === 'running' && !runningHere && !leaseHeld,
      note: row.note,
      messages: figures.messages,
      counts: this.counts(row.id),
      estimatedKobo: figures.estimated,
      chargedKobo: figures.charged,
      chargedAsQuoted: figures.as_quoted,
      uncertainKobo: figures.uncertain,
      createdAt: row.created_at,
      finishedAt: row.finished_at,
    };
  }
}

export function jobMessageView(m: JobMessageRow): JobMessageView {
  const sent = m.state === 'sent';
  return {
    seq: m.job_seq,
    row: m.job_row,
    phone: m.target,
    body: m.body,
    state: m.state,
    pages: smsPages(m.body),
    estimatedKobo: m.quoted_kobo,
    chargedKobo: sent ? (m.charged_kobo ?? m.quoted_kobo) : null,
    costSource: sent ? (m.charged_kobo === null || m.charge_source === 'quoted' ? 'quoted' : 'service') : null,
    reference: m.reference,
    reason: m.error ?? m.settled_by,
    attempts: m.attempts,
  };
}
