/**
 * What `vendesk report spend`, `logs --from/--to`, `export logs` and `reconcile` do about days of
 * their range the mirror has not read (a first sync over one day, a folder synced only nightly):
 * they read those days from the service first, saying so and showing the sync's progress on
 * stderr (and say up to when today, still growing, is counted); with `--offline`, or when the service cannot be read,
 * they refuse (exit 1) naming the days and the exact `vendesk sync --from … --to …` to run. A
 * figure over a range is never silently short.
 */
import { z } from 'zod';
import type { EventMap } from '../../shared/contract';
import type { MirrorCoverage, ReadPurpose } from '../../shared/contract/logs';
import { missingDaysText } from '../../shared/coverageText';
import { formatDateTime, formatDay } from '../../shared/localDates';
import type { CliContext, OptionSpec } from '../cliCommand';
import { isoTime } from '../jsonShape';

export const OFFLINE_OPTION: OptionSpec = {
  name: 'offline',
  kind: 'boolean',
  description: 'Never read the service: refuse (exit 1, naming the `vendesk sync` to run) when days of the range were never read',
};

/** A sync's progress as one stderr line. */
export function syncProgressLine(p: EventMap['sync.progress']): string {
  return `sync: ${p.done}${p.total !== null ? ` of ${p.total}` : ''} entries, ${p.pages} pages`;
}

/** What is read first, said before it starts. */
function readingNote(c: MirrorCoverage): string {
  return `vendesk has not read ${missingDaysText(c)} from the service: reading ${c.wholeLogUnread ? 'it' : 'them'} first (${c.syncCommand}).`;
}

/** The days of the range: read first (or refused, as an error with exit 1); the coverage the command then reads under. */
export async function readDaysFirst(ctx: CliContext, range: { from?: string; to?: string }, purpose: ReadPurpose): Promise<MirrorCoverage> {
  const offline = ctx.args.options.offline === true;
  if (!offline) {
    const before = await ctx.call('logs.coverage', { ...range, ask: true });
    if (before.read) ctx.progress(readingNote(before));
  }
  const app = await ctx.app();
  // Progress while it reads (at most every 150 ms), and always the line it finished on.
  let said = '';
  const stop = app.events.on('sync.progress', (p) => {
    if ((p.state !== 'running' && p.state !== 'done') || p.pages === 0) return;
    const line = syncProgressLine(p);
    if (line !== said) ctx.progress(line);
    said = line;
  });
  let coverage: MirrorCoverage;
  try {
    coverage = await ctx.call('logs.readMissing', { ...range, unread: offline ? 'refuse' : 'read', for: purpose });
  } finally {
    stop();
  }
  // Today is still growing: say up to when it is counted.
  if (coverage.todayReadThrough) {
    ctx.progress(
      `Today (${formatDay(coverage.today)}) is counted up to ${formatDateTime(coverage.todayReadThrough)}, when it was last read; run \`vendesk sync\` first to count it up to now.`,
    );
  }
  return coverage;
}

/** The period of a range in the JSON: what the figures cover. */
export const periodShape = z
  .strictObject({
    from: z.string().nullable().describe('first Lagos day; null: the start of the log'),
    to: z.string().describe('last Lagos day, included'),
    complete: z.boolean().describe('every day up to today was read from the service'),
    todayReadThrough: isoTime.nullable().describe('when the range holds today: the instant up to which today is counted'),
    notYet: z.strictObject({ from: z.string(), to: z.string(), days: z.number() }).nullable().describe('days of the range after today (service clock): nothing yet'),
  })
  .describe('the days the figures cover, and what the mirror held of them');

export function periodJson(c: MirrorCoverage): z.infer<typeof periodShape> {
  return { from: c.from, to: c.to, complete: c.complete, todayReadThrough: c.todayReadThrough, notYet: c.notYet };
}

/** A note on stderr for a listing or export over the whole mirror when the log was never read from its start. */
export async function noteWholeLog(ctx: CliContext): Promise<void> {
  const c = await ctx.call('logs.coverage', {});
  if (c.wholeLogUnread) ctx.progress(`Note: vendesk has not read ${missingDaysText(c)}; these figures are of the days it has read. Run \`vendesk sync\` to read the whole log.`);
}
