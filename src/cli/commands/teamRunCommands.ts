/**
 * `vendesk bulk adopt TEAM_JOB_ID`: runs an approved team job on this desktop (issue 18) — one
 * prepared on another desktop, from the rows stored in the team database — on a connection to the
 * same service and organisation. Prints the same summary as `bulk resume`; later runs of the same
 * job here are `bulk adopt` again or `bulk resume` of the local job id it prints.
 */
import { command, requirePositional } from '../cliCommand';
import { errorDocument } from '../jsonShape';
import { z } from 'zod';
import { JOB_EXIT_CODES, jobProgressPrinter, jobResult, jobSummaryShape } from './bulkCommands';

export const bulkAdoptCommand = command({
  path: ['bulk', 'adopt'],
  summary: 'Run an approved team job on this desktop (prepared on another one); rows another desktop sent are never sent again',
  usage: 'vendesk bulk adopt TEAM_JOB_ID [--json]',
  options: [],
  output: z.union([jobSummaryShape, errorDocument]),
  exitCodes: JOB_EXIT_CODES,
  async run(ctx) {
    const { callOrThrow } = await import('../callOrThrow');
    const teamJobId = requirePositional(ctx.args, 0, 'Name the team job: vendesk bulk adopt TEAM_JOB_ID (see `vendesk approvals --state approved`).');
    const app = await ctx.app();
    let localJob: string | null = null;
    const print = jobProgressPrinter(ctx);
    const unsubscribe = app.events.on('job.progress', (p) => {
      localJob = p.jobId;
      print(p);
    });
    void ctx.interrupted.then(() => {
      if (!localJob) return;
      ctx.progress(`Pausing: items in flight finish, nothing new is sent. Resume with: vendesk bulk resume ${localJob}`);
      void callOrThrow(app, 'bulk.pause', { jobId: localJob });
    });
    try {
      return jobResult(await callOrThrow(app, 'bulk.adopt', { teamJobId, wait: true }));
    } finally {
      unsubscribe();
    }
  },
});

export const TEAM_RUN_COMMANDS = [bulkAdoptCommand];
