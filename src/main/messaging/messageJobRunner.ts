/**
 * Runs a job of personalised messages: each message is committed `sending` before its request
 * leaves (`/sendMessage` with its `receiverNumber` and its own text), then recorded as the service
 * answered. Exactly once:
 *
 * - A message whose answer was lost (`uncertain`: a timeout, a server error, vendesk stopped while
 *   it was in flight) is never sent again blindly: the service's message history is read for it
 *   (sentMessageCheck.ts). Found: it was sent, at the history's cost. Not there, once 2 minutes
 *   have passed on the service's clock: it was not sent, and goes again (in a cancelled job it is
 *   cancelled). The history cannot tell: it is left to the user and the job needs attention.
 * - The service refusing a message (nothing charged) pauses the job with its reason; resumed, the
 *   message goes again, and a second refusal leaves it `failed` and the job goes on.
 * - Three lost answers in a row pause the job: the service is not answering clearly.
 * - A switch of connection pauses it: it is sent on its own connection (the pinned Session) only.
 */
import { AppError } from '../../shared/appError';
import type { MessageJobState } from '../../shared/contract/messaging';
import { formatDateTime } from '../../shared/localDates';
import { UncertainOutcomeError } from '../api/serviceErrors';
import type { App, Session } from '../appContext';
import { messageCharge, sendRecorded } from './paidSends';
import { MESSAGE_CHECK_DELAY_MS, historyOfNumber, matchSentMessage } from './sentMessageCheck';
import { REFUSED_ONCE, type JobMessageRow, type MessageJobStore } from './messageJobStore';

export interface MessageJobTiming {
  /** Between two checks of messages whose answer was lost. */
  pollMs: number;
  /** How long the job's lease lasts unless renewed. */
  leaseMs: number;
  /** How long after a lost answer the service's silence is trusted (its clock). */
  checkDelayMs: number;
}

export const MESSAGE_JOB_TIMING: MessageJobTiming = { pollMs: 2_000, leaseMs: 30_000, checkDelayMs: MESSAGE_CHECK_DELAY_MS };

/** Lost answers in a row that pause the job. */
const UNCLEAR_IN_A_ROW = 3;
/** Failed reads of the history before a message is left to the user. */
const HISTORY_READS = 5;
/** A message sent this many times without a clear answer, and not in the history, is left to the user. */
export const MAX_MESSAGE_ATTEMPTS = 3;
/** The windows re-read the wallet and the history every this many messages sent. */
const INVALIDATE_EVERY = 25;

export function runningElsewhere(holder: number): AppError {
  return new AppError(
    'job_running_elsewhere',
    `This job of messages is being sent by another vendesk process (pid ${holder}).`,
    'Wait for it to finish, or pause it there; it can be resumed here once that process has stopped.',
  );
}

type Stop = 'pause' | 'cancel';

export class MessageJobRunner {
  private stop: Stop | null = null;
  private wake: (() => void) | null = null;
  private sentSinceInvalidate = 0;
  private unclearInARow = 0;
  private historyFailures = 0;
  /** Uncertain messages the history cannot settle, with why (written on them when the run ends). */
  private readonly undecided = new Map<number, string>();
  /** When (service clock) an absent message's silence may be trusted. */
  private readonly absentUntil = new Map<number, number>();

  constructor(
    private readonly app: App,
    private readonly session: Session,
    private readonly store: MessageJobStore,
    readonly jobId: number,
    private readonly timing: MessageJobTiming,
    private readonly signal?: AbortSignal,
  ) {
    signal?.addEventListener('abort', () => this.request('pause'), { once: true });
  }

  /** Asks the run to stop after the message in flight; a cancel wins over a pause. */
  request(stop: Stop): void {
    if (this.stop !== 'cancel') this.stop = stop;
    this.progress(stop === 'cancel' ? 'cancelling' : 'pausing', stop === 'cancel' ? 'Cancelling: the message in flight finishes' : 'Pausing: the message in flight finishes');
    this.wake?.();
  }

  /** Runs until every message has its answer, or the job pauses, is cancelled or needs attention. The caller holds the lease. */
  async run(): Promise<void> {
    const job = this.store.job(this.jobId);
    if (!job) return;
    let settleOnly = job.state === 'cancelled';
    let end: { state: MessageJobState; note: string | null } = { state: 'paused', note: null };
    try {
      for (;;) {
        this.store.renewLease(this.jobId, process.pid, this.timing.leaseMs);
        if (this.stop === 'cancel' && !settleOnly) {
          this.store.cancelQueued(this.jobId);
          this.store.setState(this.jobId, 'cancelled', null);
          settleOnly = true;
        }
        if (this.stop === 'pause' && !settleOnly) {
          end = { state: 'paused', note: 'Paused: messages not sent yet wait until you resume the job.' };
          break;
        }
        if (this.app.connection.profileId !== this.session.connection.profileId && !settleOnly) {
          end = {
            state: 'paused',
            note: `Paused: vendesk was switched to another connection; this job is sent on ${this.session.connection.profileName} only. Switch back and resume it.`,
          };
          break;
        }
        await this.checkUncertain(settleOnly);
        if (!settleOnly) {
          const next = this.store.nextQueued(this.jobId);
          if (next) {
            const stopped = await this.sendOne(next);
            if (stopped) {
              end = stopped;
              break;
            }
            continue;
          }
        }
        const uncertain = this.store.messages(this.jobId, ['uncertain']);
        if (uncertain.length === 0) {
          end = { state: settleOnly ? 'cancelled' : 'completed', note: null };
          break;
        }
        if (uncertain.every((m) => this.undecided.has(m.id))) {
          end = {
            state: settleOnly ? 'cancelled' : 'needs_attention',
            note: `${uncertain.length} message${uncertain.length === 1 ? '' : 's'} may have been sent: the service's message history cannot tell (each says why). Check ${uncertain.length === 1 ? 'it' : 'them'} in the History tab before sending ${uncertain.length === 1 ? 'it' : 'them'} again.`,
          };
          break;
        }
        if (this.stop !== null) {
          end = settleOnly ? { state: 'cancelled', note: null } : { state: 'paused', note: 'Paused: messages whose answer was lost are checked when you resume the job.' };
          break;
        }
        this.progress('running', 'Checking the service’s message history for messages whose answer was lost');
        await this.sleep(this.timing.pollMs);
      }
    } catch (error) {
      // Whatever stopped the run, the job says why and nothing in flight is lost (a `sending` message is checked on resume).
      end = { state: settleOnly ? 'cancelled' : 'paused', note: `Paused: ${error instanceof Error ? error.message : String(error)}` };
    } finally {
      for (const [id, why] of this.undecided) this.store.noteUncertain(id, why);
      this.store.setState(this.jobId, end.state, end.note);
      this.store.releaseLease(this.jobId, process.pid);
      this.progress(end.state, end.note ?? undefined);
      this.app.invalidate(['messages', 'balance'], 'a job of messages stopped sending');
    }
  }

  /** Sends one queued message; answers how the job stops when it must. */
  private async sendOne(m: JobMessageRow): Promise<{ state: MessageJobState; note: string } | null> {
    const { client } = this.session;
    const refusedBefore = m.settled_by === REFUSED_ONCE;
    if (!this.store.markSending(m.id, client.clock.windowAt(Date.now()).fromMs)) return null;
    try {
      await sendRecorded(
        this.app,
        this.session,
        m.id,
        (c, options) =>
          c.sendMessage({ senderId: m.sender_id, messageBody: m.body, isBulk: false, receiverNumber: m.target, sendtoEmail: false, emails: [], templateInUse: false }, options),
        (answer) => messageCharge(answer, m.quoted_kobo),
      );
      this.unclearInARow = 0;
      if (++this.sentSinceInvalidate >= INVALIDATE_EVERY) {
        this.sentSinceInvalidate = 0;
        this.app.invalidate(['messages', 'balance'], 'a job of messages sent messages');
      }
      this.progress('running');
      return null;
    } catch (error) {
      if (error instanceof UncertainOutcomeError) {
        this.progress('running');
        if (++this.unclearInARow < UNCLEAR_IN_A_ROW) return null;
        return {
          state: 'paused',
          note: `Paused: the service did not answer clearly ${UNCLEAR_IN_A_ROW} times in a row (${error.message}). Those messages are checked in its message history; resume the job when the service is working.`,
        };
      }
      const reason = error instanceof Error ? error.message : String(error);
      if (refusedBefore) {
        this.progress('running');
        return null;
      }
      this.store.requeueRefused(m.id);
      return {
        state: 'paused',
        note: `Paused: the service refused the message to ${m.target} (${reason}). Nothing was charged for it. Resume to send it again (a second refusal leaves it out), or cancel the rest.`,
      };
    }
  }

  /** Reads the service's history for the uncertain messages whose check is due. */
  private async checkUncertain(settleOnly: boolean): Promise<void> {
    const { client, connection } = this.session;
    const serviceNow = () => Date.now() + client.clock.offsetMs();
    let checked = false;
    for (const m of this.store.messages(this.jobId, ['uncertain'])) {
      if (this.undecided.has(m.id)) continue;
      // One waiting message is read each pass (its answer also tells the service's clock); the others once their wait is over.
      const until = this.absentUntil.get(m.id);
      if (until !== undefined && checked && serviceNow() < until) continue;
      checked = true;
      const sentMs = m.service_from_ms ?? Date.parse(m.created_at);
      let history;
      try {
        history = await historyOfNumber(client, m.target, sentMs);
      } catch (error) {
        if (++this.historyFailures >= HISTORY_READS) {
          this.undecided.set(
            m.id,
            `The service's message history could not be read (${error instanceof Error ? error.message : String(error)}); check this message there before sending it again.`,
          );
        }
        continue;
      }
      const match = matchSentMessage({ phone: m.target, body: m.body, senderId: m.sender_id, sentMs }, history.messages, history.complete, (ref) =>
        this.store.isReferenceClaimed(connection.profileId, ref),
      );
      if (match.kind === 'sent') {
        const at = match.message.createdAt ? ` (${formatDateTime(match.message.createdAt)})` : '';
        this.store.settleSent(m.id, match.message, `Found in the service's message history as ${match.message.reference ?? 'a message'}${at} after its answer was lost.`);
        this.progress('running');
        continue;
      }
      if (match.kind === 'later') {
        this.undecided.set(
          m.id,
          `The service's message history has the same text to ${m.target} later (reference ${match.message.reference ?? 'not given'}) that vendesk cannot tie to this message for sure; check it before sending it again.`,
        );
        continue;
      }
      if (match.kind === 'unreadable') {
        this.undecided.set(m.id, `It may have been sent: ${match.why}. Check it in the History tab before sending it again.`);
        continue;
      }
      const trustedFrom = sentMs + this.timing.checkDelayMs;
      if (serviceNow() < trustedFrom) {
        this.absentUntil.set(m.id, trustedFrom);
        continue;
      }
      this.absentUntil.delete(m.id);
      const after = `${Math.round((serviceNow() - sentMs) / 1000)} s after it was sent`;
      if (settleOnly) {
        this.store.settleAbsent(
          m.id,
          'cancel',
          `Not in the service's message history ${after}: it was not sent. The job was cancelled, so it was not sent again; nothing was charged.`,
        );
      } else if (m.attempts >= MAX_MESSAGE_ATTEMPTS) {
        this.undecided.set(m.id, `Sent ${m.attempts} times without a clear answer and not in the service's message history; check it there before sending it again.`);
      } else {
        this.store.settleAbsent(m.id, 'send_again', `Not in the service's message history ${after}: it was not sent, so it was sent again.`);
      }
      this.progress('running');
    }
  }

  private progress(state: MessageJobState | 'pausing' | 'cancelling', message?: string): void {
    const counts = this.store.counts(this.jobId);
    const total = Object.values(counts).reduce((a, b) => a + b, 0);
    const done = counts.sent + counts.failed + counts.cancelled;
    this.app.events.emit('messaging.job.progress', {
      jobId: this.jobId,
      state,
      counts,
      done,
      total,
      message: message ?? `${done.toLocaleString('en-NG')} of ${total.toLocaleString('en-NG')} messages answered`,
    });
  }

  /** Waits `ms`, or less when a stop is asked for. */
  private sleep(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const timer = setTimeout(done, ms);
      function done() {
        clearTimeout(timer);
        resolve();
      }
      this.wake = () => {
        this.wake = null;
        done();
      };
    });
  }
}
