/**
 * Which bulk jobs the connection in use may see and send: a job belongs to the connection it was
 * prepared on, is read only on it, and is sent to (and asked about at) only that service.
 */
import { AppError } from '../../shared/appError';
import type { AppPart } from '../appContext';
import type { JobRow, JobStore } from './jobStore';

export class JobAccess {
  constructor(
    private readonly app: AppPart<'connection'>,
    private readonly store: JobStore,
  ) {}

  /** The key of the connection in use: every view, export and command reads only its jobs. */
  get profileId(): string {
    return this.app.connection.profileId;
  }

  /** A job of the connection in use; a job of another connection is not on this one. */
  requireJob(jobId: string): JobRow {
    const job = this.store.job(jobId);
    if (!job)
      throw new AppError('job_not_found', `There is no bulk job ${jobId}.`, 'Check the job id (vendesk bulk list lists the jobs of this connection) or open the Purchases page.');
    if (job.profile_id !== this.profileId) {
      const c = this.app.connection;
      throw new AppError(
        'job_other_connection',
        `Bulk job ${jobId} is not on this connection: it was made on another one (${job.connection_kind.toUpperCase()} ${job.base_url}); vendesk is now connected to ${c.kind.toUpperCase()} ${c.profileName}.`,
        'Switch back to the connection the job was prepared for (Settings → Connection profiles, or the same --base-url) to see or resume it.',
      );
    }
    return job;
  }

  requireDraft(jobId: string): JobRow {
    const job = this.requireJob(jobId);
    if (job.state !== 'draft')
      throw new AppError('job_not_draft', 'This job is already confirmed; its rows cannot be changed.', 'Prepare a new job from the file for other changes.');
    return job;
  }

  /** A job is sent to, and asked about at, only the service it was prepared for. */
  checkConnection(job: JobRow): void {
    const problem = this.connectionProblem(job);
    if (problem) throw problem;
  }

  /**
   * Why a running `job` may not send now, saying what to do (it pauses with this), or null. Not
   * "prepare the file again": some of its rows may be bought already.
   */
  readonly sendingProblem = (job: JobRow): string | null => {
    if (!this.connectionProblem(job)) return null;
    const c = this.app.connection;
    return `vendesk is now connected to ${c.kind.toUpperCase()} ${c.profileName}, and this job runs only on the connection it was prepared for (${job.connection_kind.toUpperCase()} ${job.base_url}). Nothing of it was sent to the other connection. Switch back to that connection, then resume the job: the rows not sent yet wait.`;
  };

  connectionProblem(job: JobRow): AppError | null {
    const c = this.app.connection;
    const same = c.profileId === job.profile_id && (c.kind === 'sandbox' && c.profileId === 'sandbox' ? true : c.baseUrl === job.base_url);
    if (!same) {
      return new AppError(
        'job_other_connection',
        `This job was prepared for another connection (${job.connection_kind.toUpperCase()} ${job.base_url}); vendesk is now connected to ${c.kind.toUpperCase()} ${c.profileName}.`,
        'Switch back to the connection the job was prepared for, or prepare the file again on this connection.',
      );
    }
    return null;
  }
}
