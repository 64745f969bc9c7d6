/**
 * Jobs of personalised messages: a list of `{ phone, text }`, each already filled for its
 * recipient, sent one by one as a job with progress that can be paused, resumed and cancelled
 * (messageJobRunner.ts), every message written before anything is sent (messageJobStore.ts).
 *
 * The one entry point for other parts of vendesk is {@link sendPersonalisedMessages} — the
 * standing orders engine sends "Hello {name}, your November data allowance of 2GB has been sent"
 * to each recipient, and a note to a finance contact, through it:
 *
 *   const job = await sendPersonalisedMessages(app, session, { senderId: 'VENDESK', label: 'Standing order “Data allowances”, November', messages });
 *   // job.state: 'completed' | 'paused' | 'needs_attention'; job.chargedKobo: what the wallet paid
 *
 * It takes the pinned Session (the connection the work was checked on): a job is sent there or
 * not at all, whatever connection the window switches to meanwhile.
 */
import { AppError } from '../../shared/appError';
import type { JobMessageState, MessageJobPage, MessageJobView } from '../../shared/contract/messaging';
import { messageCost } from '../../shared/messagingCost';
import { normalizePhone } from '../../shared/phone';
import { HIDDEN_CHARACTER, hiddenCharacterName, isEmojiGlue } from '../../shared/visibleText';
import type { App, Session } from '../appContext';
import { pidAlive } from '../buying/jobRunner';
import { MessageJobRunner, MESSAGE_JOB_TIMING, runningElsewhere, type MessageJobTiming } from './messageJobRunner';
import { jobMessageView, MessageJobStore, type MessageJobRow, type NewJobMessage } from './messageJobStore';
import { createMessagingService } from './messagingService';
import { costChanged } from './paidSends';

/** One message, already filled for its recipient. `row`: its row of a sheet, when it came from one. */
export interface PersonalisedMessage {
  phone: string;
  text: string;
  row?: number | null;
  /** What the message is about, sent once per connection whoever asks again (`bulk:<job id>:<seq>`). */
  sourceKey?: string | null;
}

export interface PersonalisedMessagesRequest {
  /** An approved sender ID of the organisation. */
  senderId: string;
  messages: readonly PersonalisedMessage[];
  /** What the job is, as the window and `vendesk sms jobs` name it: a file's name, "Standing order “Data allowances”, November". */
  label: string;
  /** `sheet`: from a contacts sheet; `service` (the default): from another part of vendesk. */
  origin?: 'sheet' | 'service';
  fileHash?: string | null;
  /** The text with its placeholders, when the messages were filled from one. */
  text?: string | null;
  /** The estimated total someone confirmed: refused (`cost_changed`) when the messages cost another amount. */
  confirmedTotalKobo?: number;
  /** The job's source (`bulk:<job id>`), so its unfinished jobs can be found and resumed. */
  sourceRef?: string | null;
}

/** The most messages one job takes (as many as the rows of one import). */
const MAX_MESSAGES = 200_000;
const MAX_CHARS = 1600;

/** What is wrong with one message, or null. */
function messageProblem(m: PersonalisedMessage, index: number): string | null {
  const where = m.row ? `Row ${m.row}` : `Message ${index + 1}`;
  const phone = normalizePhone(m.phone);
  if (!phone.ok) return `${where}: ${phone.reason}`;
  if (m.text.trim() === '') return `${where}: the text is empty`;
  const length = [...m.text].length;
  if (length > MAX_CHARS) return `${where}: the text is ${length.toLocaleString('en-NG')} characters, more than the 1,600 (10 pages) a message can hold`;
  for (const ch of m.text) {
    if (HIDDEN_CHARACTER.test(ch) && ch !== '\n' && ch !== '\t' && ch !== '\r' && !isEmojiGlue(ch)) {
      return `${where}: the text holds a hidden character (${hiddenCharacterName(ch)}) that can change what a screen shows`;
    }
  }
  return null;
}

export class PersonalisedMessages {
  private readonly store: MessageJobStore;
  private readonly running = new Map<number, { runner: MessageJobRunner; done: Promise<void> }>();

  constructor(
    private readonly app: App,
    private readonly timing: MessageJobTiming = MESSAGE_JOB_TIMING,
  ) {
    this.store = new MessageJobStore(app.db);
  }

  /**
   * Checks the messages (every number Nigerian, every text sendable), the sender ID (asked of the
   * session's service) and the confirmed cost, then writes the job with every message `queued`.
   * Nothing is written when anything is refused. Null: every message has a `sourceKey` already
   * written (nothing new to send).
   */
  async create(session: Session, request: PersonalisedMessagesRequest): Promise<number | null> {
    session.refuseIfSwitched('message');
    const { messages } = request;
    if (messages.length === 0) throw new AppError('messages_invalid', 'There are no messages to send.', 'Give at least one message.');
    if (messages.length > MAX_MESSAGES) {
      throw new AppError('messages_invalid', `${messages.length.toLocaleString('en-NG')} messages are more than one job sends (200,000).`, 'Split them into several jobs.');
    }
    const problems = messages.map(messageProblem).filter((p): p is string => p !== null);
    if (problems.length > 0) {
      throw new AppError(
        'messages_invalid',
        `${problems.length.toLocaleString('en-NG')} message${problems.length === 1 ? '' : 's'} cannot be sent: ${problems.slice(0, 3).join('; ')}${problems.length > 3 ? '; …' : ''}. Nothing was sent.`,
        'Correct them and send again.',
        { problems: problems.slice(0, 200) },
      );
    }
    await this.app.service(createMessagingService).approvedSender(request.senderId, session.client);
    const written: NewJobMessage[] = messages.map((m) => {
      const phone = normalizePhone(m.phone);
      return {
        phone: phone.ok ? phone.phone : m.phone,
        text: m.text,
        quotedKobo: messageCost({ text: m.text, recipients: 1, emails: 0 }).smsKobo,
        row: m.row ?? null,
        sourceKey: m.sourceKey ?? null,
      };
    });
    const total = written.reduce((sum, m) => sum + m.quotedKobo, 0);
    if (request.confirmedTotalKobo !== undefined && request.confirmedTotalKobo !== total) {
      throw costChanged(total, request.confirmedTotalKobo, `${written.length.toLocaleString('en-NG')} message(s)`);
    }
    // The checks took a while: still the session's connection, or nothing is written.
    session.refuseIfSwitched('message');
    return this.store.create(
      {
        serviceKey: session.connection.profileId,
        senderId: request.senderId,
        origin: request.origin ?? 'service',
        label: request.label,
        fileHash: request.fileHash ?? null,
        text: request.text ?? null,
        sourceRef: request.sourceRef ?? null,
      },
      written,
    );
  }

  /** The unfinished jobs of a source (`bulk:<job id>`) of the connection in use. */
  unfinishedOf(sourceRef: string): number[] {
    return this.store.unfinishedOf(this.app.connection.profileId, sourceRef).map((j) => j.id);
  }

  /**
   * Runs the job on `session` in this process once it holds the job's lease. With `wait`, resolves
   * when it has finished, paused or needs attention (a `signal` aborted pauses it); else once it runs.
   */
  async start(session: Session, id: number, options: { wait: boolean; signal?: AbortSignal }): Promise<MessageJobView> {
    const here = this.running.get(id);
    if (!here) {
      const begun = this.store.beginRun(id, process.pid, this.timing.leaseMs, pidAlive);
      if (!begun.ok) throw runningElsewhere(begun.holder);
      const runner = new MessageJobRunner(this.app, session, this.store, id, this.timing, options.signal);
      const done = runner.run().finally(() => this.running.delete(id));
      this.running.set(id, { runner, done });
      if (options.wait) await done;
    } else if (options.wait) {
      await here.done;
    }
    return this.view(id);
  }

  /** The job, if it is one of the connection in use. */
  private ownJob(id: number): MessageJobRow {
    const row = this.store.job(id);
    if (!row) throw new AppError('message_job_not_found', `There is no job of messages ${id}.`, 'List them with `vendesk sms jobs`, or on the Messaging page’s History tab.');
    if (row.service_key !== this.app.connection.profileId) {
      throw new AppError(
        'job_other_connection',
        `Job of messages ${id} belongs to another connection than the one in use (${this.app.connection.profileName}).`,
        'Switch to the connection it was sent on (Settings → Profiles, or --profile), then try again.',
      );
    }
    return row;
  }

  view(id: number): MessageJobView {
    return this.store.view(this.ownJob(id), this.running.has(id), pidAlive);
  }

  list(limit: number): MessageJobView[] {
    return this.store.jobs(this.app.connection.profileId, limit).map((row) => this.store.view(row, this.running.has(row.id), pidAlive));
  }

  page(input: { id: number; offset: number; limit: number; states?: JobMessageState[] }): MessageJobPage {
    const job = this.view(input.id);
    return {
      job,
      messages: this.store.messages(input.id, input.states, input.offset, input.limit).map(jobMessageView),
      matching: this.store.count(input.id, input.states),
      offset: input.offset,
    };
  }

  /** Stops sending after the message in flight (this process's run); a job left running by a vendesk that stopped is marked paused. */
  pause(id: number): MessageJobView {
    const job = this.view(id);
    const here = this.running.get(id);
    if (here) here.runner.request('pause');
    else if (job.state === 'running' && job.interrupted)
      this.store.setState(id, 'paused', 'Paused: it was left running by a vendesk that stopped. Resume it to send the rest (what may have been sent is checked first).');
    else if (job.state === 'running') throw runningElsewhere(this.store.job(id)?.runner_pid ?? 0);
    return this.view(id);
  }

  /** Continues a job; for a cancelled or needing one, checks its uncertain messages in the history (nothing more is sent for a cancelled job). */
  resume(id: number, options: { wait: boolean; signal?: AbortSignal }): Promise<MessageJobView> {
    const job = this.view(id);
    if (job.state === 'completed') return Promise.resolve(job);
    if (job.state === 'cancelled' && job.counts.uncertain + job.counts.sending === 0) return Promise.resolve(job);
    return this.start(this.app.session(), id, options);
  }

  /** Messages not sent yet are not sent; those whose answer was lost are still checked in the history. */
  async cancel(id: number): Promise<MessageJobView> {
    const job = this.view(id);
    if (job.state === 'completed' || job.state === 'cancelled') {
      throw new AppError('message_job_state', `Job of messages ${id} is ${job.state}: there is nothing left to cancel.`, 'Its messages are listed with their outcome.');
    }
    const here = this.running.get(id);
    if (here) {
      here.runner.request('cancel');
      return this.view(id);
    }
    if (job.state === 'running' && !job.interrupted) throw runningElsewhere(this.store.job(id)?.runner_pid ?? 0);
    this.store.cancelQueued(id);
    this.store.setState(id, 'cancelled', null);
    const left = this.store.count(id, ['uncertain', 'sending']);
    // What may have been sent is checked in the background: never sent again, cancelled when the history shows it was not sent.
    if (left > 0) return this.start(this.app.session(), id, { wait: false });
    this.app.invalidate(['messages'], 'a job of messages was cancelled');
    return this.view(id);
  }
}

export function createPersonalisedMessages(app: App): PersonalisedMessages {
  return new PersonalisedMessages(app);
}

/**
 * Sends `request.messages` (each already filled for its recipient) as one job on `session`, one
 * `/sendMessage` each, every message written before it is sent and never sent twice; each is
 * charged ₦4 a page, counted in the spend figures like any message vendesk sends. Resolves when
 * the job has finished, paused or needs attention (`wait: false`: once it runs; `signal` aborted:
 * it pauses after the message in flight). Refuses (`messages_invalid`, `sender_unknown`,
 * `sender_not_approved`, `cost_changed`, `connection_changed`) before anything is written.
 * Null when every message has a `sourceKey` that was already written: nothing new to send.
 */
export async function sendPersonalisedMessages(
  app: App,
  session: Session,
  request: PersonalisedMessagesRequest,
  options: { wait?: boolean; signal?: AbortSignal } = {},
): Promise<MessageJobView | null> {
  const jobs = app.service(createPersonalisedMessages);
  const id = await jobs.create(session, request);
  if (id === null) return null;
  return jobs.start(session, id, { wait: options.wait ?? true, signal: options.signal });
}
